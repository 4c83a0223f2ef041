/**
 * The body of an analysis pool thread: parses a page, keeps the parse while the main thread finishes the host
 * probes, then judges and scores it (page-work.ts, the same code the main thread runs for a small page).
 * The thread runs at a lower scheduling priority than the event loop's (on Linux a thread's nice value is its
 * own): 10 steps below the process's, whatever that is (a service started with `nice` keeps the difference), so
 * that on a busy machine the cores go to answering requests first and to parsing second.
 */
import { getPriority, setPriority } from "node:os";
import { parentPort, workerData } from "node:worker_threads";
import { declaresIcon, judgePage, type ParsedPage, parsePage } from "../page-work.js";
import type { ThreadData, ThreadReply, ThreadRequest } from "./thread-protocol.js";

/** Steps of nice value below the event loop's thread: about a tenth of its share of a busy core. */
const threadNiceness = 10;
/** The lowest priority there is (the highest nice value). */
const lowestPriority = 19;

const port = parentPort;
if (!port) throw new Error("analysis-thread.ts runs as a worker thread of the analysis pool.");
const { scoring } = workerData as ThreadData;
try {
  // The thread starts with the nice value of the thread that started it, the event loop's.
  setPriority(Math.min(lowestPriority, getPriority() + threadNiceness));
} catch {
  // Not permitted here (some containers): the thread keeps the process's priority.
}
let parsed: ParsedPage | null = null;

const reply = (message: ThreadReply) => port.postMessage(message);

port.on("message", (request: ThreadRequest) => {
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
      reply({ kind: "judged", judged: judgePage(page, request.facts, scoring, request.crawl) });
    }
  } catch (error) {
    parsed = null;
    reply({ kind: "failed", message: error instanceof Error ? error.message : String(error) });
  }
});

reply({ kind: "ready" });
