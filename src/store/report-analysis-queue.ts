/**
 * The analysis-queue state of a report: the jobs counted as pending, the status they show (queued, running,
 * then that of the analysis stored), and the analysis a job already stored (what makes a job idempotent).
 */
import { type Kysely, sql } from "kysely";
import type { AnalysisTrigger } from "../vocabulary.js";
import type { ReportReads } from "./report-reads.js";
import type { AnalysisOrigin, ReportRow, StoredAnalysisRef } from "./report-rows.js";
import type { Database, ReportStatus } from "./schema.js";
import type { Store } from "./store.js";

export class ReportAnalysisQueue {
  private readonly db: Kysely<Database>;

  constructor(
    store: Store,
    private readonly reads: ReportReads,
  ) {
    this.db = store.db;
  }

  /**
   * Counts one more analysis job for the report and shows it queued (unless one is running): called before the
   * job is enqueued. Undefined when the user has no such report.
   */
  async queueAnalysis(userId: number, id: number): Promise<ReportRow | undefined> {
    const row = await this.db
      .updateTable("reports")
      .set({
        pending_analyses: sql<number>`pending_analyses + 1`,
        status: sql<ReportStatus>`case when status = 'running' then 'running' else 'queued' end`,
      })
      .where("user_id", "=", userId)
      .where("id", "=", id)
      .returningAll()
      .executeTakeFirst();
    return row && this.reads.withResults(row);
  }

  /** Takes back `queueAnalysis` when the job could not be enqueued. */
  async unqueueAnalysis(userId: number, id: number, previous: ReportStatus): Promise<void> {
    await this.db
      .updateTable("reports")
      .set({
        pending_analyses: sql<number>`case when pending_analyses > 0 then pending_analyses - 1 else 0 end`,
        status: sql<ReportStatus>`case when pending_analyses > 1 then status else ${previous} end`,
      })
      .where("user_id", "=", userId)
      .where("id", "=", id)
      .execute();
  }

  /** An analysis job of the report has started. */
  async markRunning(userId: number, id: number): Promise<void> {
    await this.db
      .updateTable("reports")
      .set({ status: "running" })
      .where("user_id", "=", userId)
      .where("id", "=", id)
      .execute();
  }

  /** The analysis a request (job) already stored for the report, if it did: what makes a job idempotent. */
  async analysisOfRequest(
    userId: number,
    id: number,
    requestId: string,
  ): Promise<StoredAnalysisRef | undefined> {
    return this.db
      .selectFrom("analyses")
      .select(["id", "status", "error_reason"])
      .where("user_id", "=", userId)
      .where("report_id", "=", id)
      .where("request_id", "=", requestId)
      .executeTakeFirst();
  }
}

/**
 * The report's status once an analysis is stored. A job's analysis ends one pending job: the report shows the
 * outcome unless another job is still queued or running. An analysis made inside an HTTP request, or by a crawl
 * (whose jobs are the crawl's, not the report's), leaves pending jobs as they are.
 */
export function settled(origin: AnalysisOrigin | AnalysisTrigger, outcome: "complete" | "failed") {
  if (typeof origin !== "string" && origin.requestId !== null && origin.trigger !== "crawl") {
    return {
      pending_analyses: sql<number>`case when pending_analyses > 0 then pending_analyses - 1 else 0 end`,
      status: sql<ReportStatus>`case when pending_analyses > 1 then 'queued' else ${outcome} end`,
    };
  }
  return { status: sql<ReportStatus>`case when pending_analyses > 0 then status else ${outcome} end` };
}
