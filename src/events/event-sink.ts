/**
 * The seam between what happens (an analysis stored, a crawl finished) and who is told about it (webhooks).
 * Producers — the report service, the analysis job, the crawler — call the sink after their change is
 * committed; the webhooks module implements it. Calls must be idempotent: a job that is run again after a
 * crash announces the same analysis again, and the sink must turn that into the same deliveries, not new ones.
 */
import type { AnalysisTrigger } from "../vocabulary.js";

export interface AnalysisRecorded {
  userId: number;
  reportId: number;
  /** The stored analysis (history row id). */
  analysisId: number;
  status: "complete" | "failed";
  trigger: AnalysisTrigger;
}

export interface CrawlFinished {
  userId: number;
  crawlId: number;
  status: "complete" | "failed" | "cancelled";
}

export interface EventSink {
  /** An analysis was stored (any trigger; the sink itself skips what must not be announced, e.g. crawl pages). */
  analysisRecorded(event: AnalysisRecorded): Promise<void>;
  crawlFinished(event: CrawlFinished): Promise<void>;
}

/** Tells nobody: the default where no webhooks are wired (the CLI, tests of other parts). */
export const silentEventSink: EventSink = {
  async analysisRecorded() {},
  async crawlFinished() {},
};
