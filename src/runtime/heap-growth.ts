/**
 * How far the JavaScript heap may grow past what is live before V8 collects it again. On a machine with a few
 * gigabytes of memory V8 lets the heap grow up to 4× its live data between full collections; a crawl's live
 * data is small (about 90 MB at 8 pages at once) but it turns over tens of megabytes a second, so the heap
 * sat at twice to three times that. Asking for at most 1.6× (V8's own choice on a machine with about 1 GB for
 * the heap) took a 1,000-page crawl from 310–360 MB to 265–280 MB at its peak on Node.js 20, and from about
 * 510 MB to 410 MB on Node.js 24 (whose young generation is larger), for 5–11 % of the engine's speed
 * (`npm run bench:crawl` prints it). The collector still grows the heap when it has to: this is a growth rate,
 * not a cap.
 *
 * `PAGEGRADE_HEAP_GROWTH_PERCENT` sets it (0: V8's own heuristics). A `--heap-growing-percent` given to Node
 * itself (command line or NODE_OPTIONS) wins. The service, the worker and the command line apply it first
 * thing; V8 reads the flag at every collection, so setting it at run time takes effect.
 */
import { setFlagsFromString } from "node:v8";
import { ConfigError } from "../config.js";

const defaultPercent = 60;
const flagName = "--heap-growing-percent";

/** The V8 flag to set for this environment and Node invocation, or null when none is to be set. */
export function heapGrowthFlag(
  env: Record<string, string | undefined>,
  execArgv: readonly string[],
): string | null {
  const ownFlag = (text: string) => text.includes(flagName) || text.includes("--heap_growing_percent");
  if (execArgv.some(ownFlag) || ownFlag(env.NODE_OPTIONS ?? "")) return null;
  const raw = env.PAGEGRADE_HEAP_GROWTH_PERCENT?.trim();
  if (raw === undefined || raw === "") return `${flagName}=${defaultPercent}`;
  if (!/^\d+$/.test(raw) || Number(raw) > 300 || (Number(raw) > 0 && Number(raw) < 10)) {
    throw new ConfigError(
      `PAGEGRADE_HEAP_GROWTH_PERCENT must be 0 (V8's own heuristics) or a whole number from 10 to 300, got "${raw}"`,
    );
  }
  return Number(raw) === 0 ? null : `${flagName}=${Number(raw)}`;
}

/** Sets this process's heap growth as `heapGrowthFlag` says. */
export function applyHeapGrowth(env = process.env, execArgv = process.execArgv): void {
  const flag = heapGrowthFlag(env, execArgv);
  if (flag) setFlagsFromString(flag);
}
