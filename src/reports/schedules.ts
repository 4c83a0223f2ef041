/**
 * Scheduled analyses. A report whose schedule is `daily` or `weekly` is analysed again one interval after its
 * last analysis: every analysis (complete or failed) sets `next_run_at` from its own time, and a recurring job
 * (`schedule-due-reports`) enqueues the analysis of every report that is due.
 *
 * Several processes may run that job at once. Each due report is claimed with a compare-and-set on
 * `next_run_at` that moves it a short lease ahead before its job is enqueued under the report's key, so one
 * process enqueues it; should that process die between the two, the lease runs out and the next sweep enqueues
 * it. The analysis then sets the real next time. A report whose analysis is already queued or running is
 * skipped: its analysis will set the next time.
 */
import { randomUUID } from "node:crypto";
import type { ScheduleIntervals } from "../config.js";
import type { JobQueue } from "../jobs/job-queue.js";
import type { ReportStore } from "../store/report-store.js";
import type { ReportSchedule } from "../store/schema.js";
import type { Store } from "../store/store.js";
import { timestamp } from "../timestamps.js";
import { type AnalyseReportPayload, enqueueAnalysis } from "./analysis-job.js";
import { ScheduleStore } from "./schedule-store.js";

export const scheduleDueReportsJob = "schedule-due-reports";

/** Reports claimed per sweep; the rest wait for the next one. */
const sweepBatch = 500;
/** How long a claimed report stays claimed before another sweep may enqueue it again. */
const claimLeaseMs = 10 * 60_000;

/** When a report with this schedule is next due, counted from `from`; null for `off`. */
export function nextRunAt(schedule: ReportSchedule, intervals: ScheduleIntervals, from: Date): string | null {
  if (schedule === "off") return null;
  return timestamp(new Date(from.getTime() + intervals[schedule] * 1000));
}

/**
 * How often the sweep runs: a quarter of the shortest interval, between 1 second and 1 minute, so a report is
 * analysed at most that late.
 */
export function sweepEveryMs(intervals: ScheduleIntervals): number {
  const shortest = Math.min(intervals.daily, intervals.weekly) * 1000;
  return Math.min(60_000, Math.max(1_000, Math.floor(shortest / 4)));
}

/** The sweep: enqueues the analysis of every due report this process manages to claim. */
export function scheduleDueReportsHandler(
  store: Store,
  reports: ReportStore,
  jobs: JobQueue,
): () => Promise<void> {
  const schedule = new ScheduleStore(store);
  return async () => {
    const now = new Date();
    const due = await schedule.due(timestamp(now), sweepBatch);
    const leaseEnd = timestamp(new Date(now.getTime() + claimLeaseMs));
    for (const report of due) {
      if (!(await schedule.claim(report.id, report.next_run_at, leaseEnd))) continue;
      const payload: AnalyseReportPayload = {
        userId: report.user_id,
        reportId: report.id,
        requestId: randomUUID(),
        trigger: "schedule",
      };
      await enqueueAnalysis(reports, jobs, payload);
    }
  };
}
