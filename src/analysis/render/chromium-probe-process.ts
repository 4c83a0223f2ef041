/**
 * The start-up check of Chromium, in a process of its own (`ChromiumStatus.probe`): it launches Chromium with
 * the rendering switches, closes it, and prints what happened as one line of JSON on standard output. Loading
 * Playwright costs a process resident memory it never gives back (its bundled sources, 14 MB as strings, and
 * their compiled code: 88 MB in a fresh Node.js process, 35 MB in an idle worker, measured with
 * `process.memoryUsage` and `/proc/<pid>/status`), so a service that never renders (a worker crawling raw
 * pages, an API without rendered requests) must not load it just to learn whether it could.
 */
import { type ChromiumLaunchOptions, launchChromium } from "./chromium-launch.js";

/** What the probe prints: the launch worked, or the launch's error message (Chromium's own words). */
export type ProbeOutcome = { ok: true } | { ok: false; message: string };

const options = JSON.parse(process.argv[2] ?? "{}") as ChromiumLaunchOptions;
let outcome: ProbeOutcome;
try {
  const browser = await launchChromium(options);
  await browser.close();
  outcome = { ok: true };
} catch (error) {
  // Playwright's message carries the launch's call log, Chromium's own lines among them: the first 8,000
  // characters hold them, and keep the line, escaped, within what the parent reads (chromium-probe.ts).
  const message = error instanceof Error ? error.message : String(error);
  outcome = { ok: false, message: message.slice(0, 8_000) };
}
process.stdout.write(`${JSON.stringify(outcome)}\n`, () => process.exit(0));
