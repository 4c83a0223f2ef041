/**
 * The messages between the analysis pool and its processes (sent over the child's IPC channel with V8's
 * serialisation). A process holds at most one page: `parse` replaces it, `judge` ends it (as does `release`,
 * which has no answer). Every request but `release` gets one reply (`judged` says how much memory the process is
resident in, which decides whether the pool recycles it); the process says `ready` once when it has
 * loaded the parser and the checks. It is started with the scoring it judges by (`ProcessArguments`), in JSON
 * in its environment (`processArgumentsVariable`: not on its command line, which every `ps` shows).
 */
import type { CrawlAsk } from "../crawled-page.js";
import type { CollectedFacts, Judged, ParseInput } from "../page-work.js";
import type { Scoring } from "../scoring-config.js";

export type PoolRequest =
  | { kind: "parse"; input: ParseInput }
  | { kind: "judge"; facts: CollectedFacts; crawl: CrawlAsk | null }
  | { kind: "release" };

export type PoolReply =
  | { kind: "ready" }
  | { kind: "parsed"; declaresIcon: boolean; parseMs: number }
  | { kind: "judged"; judged: Judged; rssMb: number }
  | { kind: "failed"; message: string };

/** The environment variable that carries a process's `ProcessArguments`. */
export const processArgumentsVariable = "PAGEGRADE_ANALYSIS_PROCESS_ARGUMENTS";

/** What a process is started with. */
export interface ProcessArguments {
  scoring: Scoring;
}
