/**
 * How many pages `analyze --file --mode rendered` renders in Chromium at once. A server shares its machine, so
 * its default (PAGEGRADE_MAX_CONCURRENT_RENDERS, 2) keeps rendered mode to two pages whatever else runs; the
 * command's `--concurrency` is the user's own choice for this run, so it sizes the browser pool too unless
 * that setting is given, which then caps it. Without this, `--concurrency 4` rendered two pages at a time,
 * the other two waiting for a browser.
 */
import { loadAnalysisConfig } from "../config.js";

export function commandAnalysisConfig(
  concurrency: number,
  env: Record<string, string | undefined> = process.env,
) {
  const config = loadAnalysisConfig(env);
  const capped = env.PAGEGRADE_MAX_CONCURRENT_RENDERS?.trim();
  return {
    ...config,
    maxConcurrentRenders: capped ? Math.min(concurrency, config.maxConcurrentRenders) : concurrency,
  };
}
