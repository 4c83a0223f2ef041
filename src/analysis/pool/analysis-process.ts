/**
 * The body of an analysis pool process: parses a page, keeps the parse while the service finishes the host
 * probes, then judges and scores it (page-work.ts, the same code the service runs for a small page).
 *
 * It runs at a lower scheduling priority than the service: 10 steps of nice below the process that started it,
 * whatever that one's (a service started with `nice` keeps the difference), so that on a busy machine the cores
 * go to answering requests first and to parsing second. On Linux a nice value belongs to each thread, and V8's
 * helper threads exist before this code runs, so every thread of the process is lowered; threads started later
 * inherit the value.
 *
 * It ends when its channel to the service closes (the service ended, however abruptly).
 */
import { readdirSync } from "node:fs";
import { getPriority, setPriority } from "node:os";
import { declaresIcon, judgePage, type ParsedPage, parsePage } from "../page-work.js";
import {
  type PoolReply,
  type PoolRequest,
  type ProcessArguments,
  processArgumentsVariable,
} from "./pool-protocol.js";

/** Steps of nice value below the service's: about a tenth of its share of a busy core. */
const niceness = 10;
/** The lowest priority there is (the highest nice value). */
const lowestPriority = 19;

const send = process.send?.bind(process);
if (!send) throw new Error("analysis-process.ts runs as a child process of the analysis pool.");

lowerPriority();
process.on("disconnect", () => process.exit(0));

const { scoring } = JSON.parse(process.env[processArgumentsVariable] ?? "{}") as ProcessArguments;
let parsed: ParsedPage | null = null;

const reply = (message: PoolReply) => send(message);

process.on("message", (request: PoolRequest) => {
  if (request.kind === "release") {
    parsed = null;
    return;
  }
  try {
    if (request.kind === "parse") {
      parsed = null;
      const { parsed: page, parseMs } = parsePage(request.input);
      parsed = page;
      reply({ kind: "parsed", declaresIcon: declaresIcon(page.document), parseMs });
    } else {
      if (!parsed) throw new Error("The page was not parsed.");
      const page = parsed;
      parsed = null;
      const judged = judgePage(page, request.facts, scoring, request.crawl);
      reply({ kind: "judged", judged, rssMb: process.memoryUsage.rss() / 1024 / 1024 });
    }
  } catch (error) {
    parsed = null;
    reply({ kind: "failed", message: error instanceof Error ? error.message : String(error) });
  }
});

reply({ kind: "ready" });

/** Lowers every thread of this process by `niceness` (the process starts with its parent's nice value). */
function lowerPriority(): void {
  try {
    const target = Math.min(lowestPriority, getPriority() + niceness);
    const threads = process.platform === "linux" ? readdirSync("/proc/self/task").map(Number) : [0];
    for (const thread of threads) setPriority(thread, target);
  } catch {
    // Not permitted here (some containers): the process keeps its parent's priority.
  }
}
