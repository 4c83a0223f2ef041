/**
 * The messages between the analysis pool and its threads. A thread holds at most one page: `parse` replaces
 * it, `judge` ends it (as does `release`, which has no answer). Every request but `release` gets one reply.
 */
import type { CrawlAsk } from "../crawled-page.js";
import type { CollectedFacts, Judged, ParseInput } from "../page-work.js";
import type { Scoring } from "../scoring-config.js";

export type ThreadRequest =
  | { kind: "parse"; input: ParseInput }
  | { kind: "judge"; facts: CollectedFacts; crawl: CrawlAsk | null }
  | { kind: "release" };

export type ThreadReply =
  | { kind: "ready" }
  | { kind: "parsed"; declaresIcon: boolean; parseMs: number }
  | { kind: "judged"; judged: Judged }
  | { kind: "failed"; message: string };

/** What a thread is started with (its `workerData`). */
export interface ThreadData {
  scoring: Scoring;
}
