/**
 * The `analyse-report` job: one analysis of a stored report in the background (an asynchronous store or re-run,
 * a scheduled run). Its payload names the report and a request id; the analysis is stored with that id, which
 * is unique, so a job that runs again after its worker died finds its analysis already stored and only announces
 * it again (the event sink turns that into the same deliveries). A page that cannot be analysed is an outcome,
 * not a job failure: it is recorded in history as a failed analysis. Anything else (the database away) is
 * retried; after the last attempt the analysis is recorded as failed with reason `internal-error`.
 */
import type { AnalysisReport, Analyzer } from "../analysis/analyse.js";
import { analysisFailureOf } from "../analysis/analysis-failure.js";
import type { Screenshot } from "../analysis/render/rendered-page.js";
import type { ScheduleIntervals } from "../config.js";
import type { EventSink } from "../events/event-sink.js";
import type { JobContext, JobQueue } from "../jobs/job-queue.js";
import { nextRunFrom, type ReportRow, type ReportStore } from "../store/report-store.js";
import { timestamp } from "../timestamps.js";
import type { AnalysisTrigger } from "../vocabulary.js";
import { analysisColumns, storedScreenshot } from "./analysis-columns.js";

export const analyseReportJob = "analyse-report";

export interface AnalyseReportPayload {
  userId: number;
  reportId: number;
  /** Unique per request: the id the stored analysis carries. */
  requestId: string;
  trigger: AnalysisTrigger;
}

/** Runs in all, the first included; a page that cannot be analysed is not a failed run. */
export const analysisJobAttempts = 3;

export interface AnalysisJobDependencies {
  reports: ReportStore;
  analyzer: Analyzer;
  events: EventSink;
  scheduleIntervals: ScheduleIntervals;
}

/**
 * Counts the job on the report (so it shows `queued`) and enqueues it; if the queue refuses, the count is taken
 * back and the error goes to the caller. Undefined when the user has no such report.
 */
export async function enqueueAnalysis(
  reports: ReportStore,
  jobs: JobQueue,
  payload: AnalyseReportPayload,
): Promise<ReportRow | undefined> {
  const before = await reports.find(payload.userId, payload.reportId);
  if (!before) return undefined;
  const queued = await reports.queueAnalysis(payload.userId, payload.reportId);
  try {
    await jobs.enqueue(analyseReportJob, payload, {
      key: `analysis:${payload.requestId}`,
      attempts: analysisJobAttempts,
      backoff: { delayMs: 2_000, maxDelayMs: 60_000 },
      userId: payload.userId,
    });
  } catch (error) {
    await reports.unqueueAnalysis(payload.userId, payload.reportId, before.status);
    throw error;
  }
  return queued;
}

export function analyseReportHandler({
  reports,
  analyzer,
  events,
  scheduleIntervals,
}: AnalysisJobDependencies) {
  return async (job: JobContext<AnalyseReportPayload>): Promise<void> => {
    const { userId, reportId, requestId, trigger } = job.payload;
    const stored = await reports.analysisOfRequest(userId, reportId, requestId);
    if (stored) {
      await events.analysisRecorded({
        userId,
        reportId,
        analysisId: stored.id,
        status: stored.status,
        trigger,
      });
      return;
    }
    const report = await reports.find(userId, reportId);
    if (!report) return; // deleted since: nothing to do
    await reports.markRunning(userId, reportId);
    let outcome:
      | { report: AnalysisReport; screenshot: Screenshot | null }
      | { failure: { reason: string; message: string } };
    try {
      outcome = await analyzer.analyse(report.url, { mode: report.mode, owner: `user ${userId}` });
    } catch (error) {
      const failure = analysisFailureOf(error);
      if (failure) {
        outcome = { failure };
      } else if (job.signal.aborted || job.attempt < analysisJobAttempts) {
        throw error;
      } else {
        outcome = {
          failure: {
            reason: "internal-error",
            message: "The analysis could not be completed; try again later.",
          },
        };
      }
    }
    if (job.signal.aborted) return; // handed back or cancelled: another run stores it
    const finished = new Date();
    const next = { next_run_at: nextRunFrom(scheduleIntervals, finished) };
    const origin = { trigger, mode: report.mode, requestId };
    if ("report" in outcome) {
      const stored = { ...origin, screenshot: storedScreenshot(outcome.screenshot) };
      const updated = await reports.reanalysed(
        userId,
        reportId,
        analysisColumns(outcome.report),
        stored,
        next,
      );
      if (updated?.analysis_id != null) {
        await events.analysisRecorded({
          userId,
          reportId,
          analysisId: updated.analysis_id,
          status: "complete",
          trigger,
        });
      }
      return;
    }
    const failure = { url: report.url, ...outcome.failure, generated_at: timestamp(finished) };
    const analysisId = await reports.recordFailure(userId, reportId, failure, origin, next);
    if (analysisId !== undefined) {
      await events.analysisRecorded({ userId, reportId, analysisId, status: "failed", trigger });
    }
  };
}
