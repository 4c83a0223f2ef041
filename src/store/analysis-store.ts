/**
 * A report's history: every analysis as its own row (complete or failed), ids increasing with time. Writes
 * happen inside the transaction that changes the report (see ReportStore), so a report and its history never
 * disagree; reads name the owner like every other query. Retention keeps the newest `historyLimit` analyses
 * of a report (0 keeps all), never dropping the one the report shows.
 */
import type { Kysely, Selectable } from "kysely";
import type { AnalysisMode, AnalysisTrigger } from "../vocabulary.js";
import { unpackResults } from "./analysis-document.js";
import type { AnalysesTable, Database } from "./schema.js";
import type { Store } from "./store.js";

export type AnalysisRow = Omit<
  Selectable<AnalysesTable>,
  "results" | "user_id" | "request_id" | "screenshot" | "screenshot_type"
>;
/** An analysis with its check results as UTF-8 JSON bytes (null for a failed one). */
export type AnalysisWithResults = AnalysisRow & { results: Buffer | null };

/**
 * What a finished analysis adds to history; the documents are JSON text but for the results, packed before the
 * transaction begins (analysis-document.ts).
 */
export interface CompleteAnalysis {
  url: string;
  final_url: string;
  result: string;
  score: number;
  summary: string;
  categories: string;
  packedResults: Buffer;
  generated_at: string;
  mode: AnalysisMode;
  /** The request (job) that made it; null for one made inside an HTTP request. */
  requestId: string | null;
  /** A rendered analysis's viewport screenshot. */
  screenshot?: StoredScreenshot | null;
}

export interface StoredScreenshot {
  mediaType: string;
  data: Buffer;
}

/** An analysis that could not be made: the URL, the stable reason code, its message and when it happened. */
export interface FailedAnalysis {
  url: string;
  reason: string;
  message: string;
  generated_at: string;
}

/** How a failed analysis was made, as history records it. */
export type FailedRun = FailedAnalysis & { mode: AnalysisMode; requestId: string | null };

/** Every column but the (large) results. */
const listColumns = [
  "id",
  "report_id",
  "status",
  "trigger",
  "mode",
  "url",
  "final_url",
  "result",
  "score",
  "summary",
  "categories",
  "error_reason",
  "error_message",
  "generated_at",
] as const;

export interface AnalysisListQuery {
  direction: "asc" | "desc";
  limit: number;
  offset: number;
}

/** One point of a report's score over time. */
export interface ScorePoint {
  id: number;
  score: number;
  result: string;
  generated_at: string;
}

export class AnalysisStore {
  private readonly db: Kysely<Database>;

  constructor(store: Store) {
    this.db = store.db;
  }

  /** The report's analyses, without their results; the total counts all of them. */
  async list(
    userId: number,
    reportId: number,
    query: AnalysisListQuery,
  ): Promise<{ rows: AnalysisRow[]; total: number }> {
    const mine = this.db
      .selectFrom("analyses")
      .where("user_id", "=", userId)
      .where("report_id", "=", reportId);
    const [counted, rows] = await Promise.all([
      mine.select((eb) => eb.fn.countAll<number>().as("total")).executeTakeFirstOrThrow(),
      mine
        .select(listColumns)
        .orderBy("id", query.direction)
        .limit(query.limit)
        .offset(query.offset)
        .execute(),
    ]);
    return { rows, total: Number(counted.total) };
  }

  async find(userId: number, reportId: number, id: number): Promise<AnalysisWithResults | undefined> {
    const row = await this.db
      .selectFrom("analyses")
      .select([...listColumns, "results"])
      .where("user_id", "=", userId)
      .where("report_id", "=", reportId)
      .where("id", "=", id)
      .executeTakeFirst();
    if (!row) return undefined;
    return { ...row, results: row.results === null ? null : unpackResults(row.results) };
  }

  /** The newest complete analysis before `id` (or the newest of all when `id` is undefined). */
  async previousComplete(
    userId: number,
    reportId: number,
    before?: number,
  ): Promise<AnalysisWithResults | undefined> {
    let query = this.db
      .selectFrom("analyses")
      .select("id")
      .where("user_id", "=", userId)
      .where("report_id", "=", reportId)
      .where("status", "=", "complete");
    if (before !== undefined) query = query.where("id", "<", before);
    const found = await query.orderBy("id", "desc").limit(1).executeTakeFirst();
    return found ? this.find(userId, reportId, found.id) : undefined;
  }

  /** The screenshot of the report's latest rendered analysis that has one. */
  async latestScreenshot(userId: number, reportId: number): Promise<StoredScreenshot | undefined> {
    const row = await this.db
      .selectFrom("analyses")
      .select(["screenshot", "screenshot_type"])
      .where("user_id", "=", userId)
      .where("report_id", "=", reportId)
      .where("screenshot", "is not", null)
      .orderBy("id", "desc")
      .limit(1)
      .executeTakeFirst();
    if (!row?.screenshot) return undefined;
    return { mediaType: row.screenshot_type ?? "image/webp", data: row.screenshot };
  }

  /** The scores of the newest `limit` complete analyses, oldest first (for a chart). */
  async scores(userId: number, reportId: number, limit: number): Promise<ScorePoint[]> {
    const rows = await this.db
      .selectFrom("analyses")
      .select(["id", "score", "result", "generated_at"])
      .where("user_id", "=", userId)
      .where("report_id", "=", reportId)
      .where("status", "=", "complete")
      .orderBy("id", "desc")
      .limit(limit)
      .execute();
    return rows.reverse().map((row) => ({
      id: row.id,
      score: row.score as number,
      result: row.result as string,
      generated_at: row.generated_at,
    }));
  }
}

/** Adds a complete analysis to a report's history inside `trx`; returns its id. */
export async function addComplete(
  trx: Kysely<Database>,
  owner: { userId: number; reportId: number },
  trigger: AnalysisTrigger,
  analysis: CompleteAnalysis,
): Promise<number> {
  const row = await trx
    .insertInto("analyses")
    .values(completeAnalysisRow(owner, trigger, analysis))
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The row of a complete analysis of the owner's report. */
export function completeAnalysisRow<UserId, ReportId>(
  owner: { userId: UserId; reportId: ReportId },
  trigger: AnalysisTrigger,
  analysis: CompleteAnalysis,
) {
  return {
    report_id: owner.reportId,
    user_id: owner.userId,
    status: "complete" as const,
    trigger,
    mode: analysis.mode,
    request_id: analysis.requestId,
    screenshot: analysis.screenshot?.data ?? null,
    screenshot_type: analysis.screenshot?.mediaType ?? null,
    url: analysis.url,
    final_url: analysis.final_url,
    result: analysis.result,
    score: analysis.score,
    summary: analysis.summary,
    categories: analysis.categories,
    results: analysis.packedResults,
    error_reason: null,
    error_message: null,
    generated_at: analysis.generated_at,
  };
}

/** Adds a failed analysis to a report's history inside `trx`; returns its id. */
export async function addFailed(
  trx: Kysely<Database>,
  owner: { userId: number; reportId: number },
  trigger: AnalysisTrigger,
  failure: FailedRun,
): Promise<number> {
  const row = await trx
    .insertInto("analyses")
    .values({
      report_id: owner.reportId,
      user_id: owner.userId,
      status: "failed",
      trigger,
      mode: failure.mode,
      request_id: failure.requestId,
      screenshot: null,
      screenshot_type: null,
      url: failure.url,
      final_url: null,
      result: null,
      score: null,
      summary: null,
      categories: null,
      results: null,
      error_reason: failure.reason,
      error_message: failure.message,
      generated_at: failure.generated_at,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * Drops the report's oldest analyses beyond `limit` (0 keeps all), except `keep` (the one the report shows),
 * and returns how many remain.
 */
export async function applyRetention(
  trx: Kysely<Database>,
  owner: { userId: number; reportId: number },
  limit: number,
  keep: number | null,
): Promise<number> {
  const mine = trx
    .selectFrom("analyses")
    .where("user_id", "=", owner.userId)
    .where("report_id", "=", owner.reportId);
  if (limit > 0) {
    const oldestKept = await mine
      .select("id")
      .orderBy("id", "desc")
      .offset(limit - 1)
      .limit(1)
      .executeTakeFirst();
    if (oldestKept) {
      await trx
        .deleteFrom("analyses")
        .where("user_id", "=", owner.userId)
        .where("report_id", "=", owner.reportId)
        .where("id", "<", oldestKept.id)
        .where("id", "!=", keep ?? -1)
        .execute();
    }
  }
  const counted = await mine.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  return Number(counted.n);
}
