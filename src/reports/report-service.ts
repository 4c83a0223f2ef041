/**
 * The rules of reports: creating one analyses the URL and stores the finished report — at once (synchronous),
 * or in the background when the client asked for it (`Prefer: respond-async`): then the report is stored first,
 * `queued`, and the `analyse-report` job analyses it. The project is the final URL's host; privacy and password
 * follow the contract (a password only where privacy is 2, required there, cleared when leaving it); a
 * synchronous re-analysis replaces the results only when it succeeds. Every stored analysis is kept in the
 * report's history (the store adds it in the same transaction). Shared by the API and the web pages.
 */

import { randomUUID } from "node:crypto";
import { hashPassword } from "../accounts/passwords.js";
import type { AnalysisReport, Analyzer } from "../analysis/analyse.js";
import { FetchFailure } from "../analysis/fetch/fetch-failure.js";
import { ChromiumUnavailable, RenderFailure } from "../analysis/render/render-errors.js";
import type { Screenshot } from "../analysis/render/rendered-page.js";
import { InvalidUrl, normaliseSubmittedUrl, projectOf } from "../analysis/submitted-url.js";
import type { ScheduleIntervals } from "../config.js";
import { AnalysisFailed, ValidationFailed } from "../errors.js";
import { type EventSink, silentEventSink } from "../events/event-sink.js";
import type { JobQueue } from "../jobs/job-queue.js";
import { type Owner, scopeOf } from "../store/owned-rows.js";
import type {
  DisplayRow,
  ReportChanges,
  ReportListQuery,
  ReportRow,
  ReportStore,
} from "../store/report-store.js";
import type { ReportSchedule } from "../store/schema.js";
import { timestamp } from "../timestamps.js";
import type { AnalysisMode } from "../vocabulary.js";
import type { AnalysisCapacity } from "./analysis-capacity.js";
import { analysisColumns, storedScreenshot } from "./analysis-columns.js";
import { enqueueAnalysis } from "./analysis-job.js";
import { checkPassword, privacyChanges, privacyLevels } from "./privacy-change.js";
import { nextRunAt } from "./schedules.js";

export { privacyLevels } from "./privacy-change.js";

export interface CreateReportInput {
  url: string;
  privacy?: number;
  password?: string;
  mode?: AnalysisMode;
  schedule?: ReportSchedule;
}

export interface UpdateReportInput {
  privacy?: number;
  password?: string;
  /** 1 re-runs the analysis. */
  results?: number;
  mode?: AnalysisMode;
  schedule?: ReportSchedule;
}

/** How to run the analysis a request asks for. */
export interface RequestOptions {
  /** Store first and analyse in the background (`Prefer: respond-async`). */
  background?: boolean;
}

export interface ReportServiceDependencies {
  reports: ReportStore;
  analyzer: Analyzer;
  capacity: AnalysisCapacity;
  jobs: JobQueue;
  scheduleIntervals: ScheduleIntervals;
  events?: EventSink;
}

export class ReportService {
  private readonly reports: ReportStore;
  private readonly analyzer: Analyzer;
  private readonly capacity: AnalysisCapacity;
  private readonly jobs: JobQueue;
  private readonly scheduleIntervals: ScheduleIntervals;
  private readonly events: EventSink;

  constructor(dependencies: ReportServiceDependencies) {
    this.reports = dependencies.reports;
    this.analyzer = dependencies.analyzer;
    this.capacity = dependencies.capacity;
    this.jobs = dependencies.jobs;
    this.scheduleIntervals = dependencies.scheduleIntervals;
    this.events = dependencies.events ?? silentEventSink;
  }

  list(owner: Owner, query: ReportListQuery) {
    return this.reports.list(owner, query);
  }

  show(owner: Owner, id: number): Promise<DisplayRow | undefined> {
    return this.reports.findForDisplay(owner, id);
  }

  /** The workspace's newest report of the URL as `create` would store it; undefined for a URL it would refuse. */
  async existingFor(owner: Owner, rawUrl: string): Promise<number | undefined> {
    let url: URL;
    try {
      url = normaliseSubmittedUrl(rawUrl);
    } catch (error) {
      if (error instanceof InvalidUrl) return undefined;
      throw error;
    }
    return this.reports.newestIdForUrl(owner, url.href);
  }

  /** Stores a report in the workspace (the acting user recorded as its creator). */
  async create(owner: Owner, input: CreateReportInput, options: RequestOptions = {}): Promise<ReportRow> {
    const { userId, teamId } = scopeOf(owner);
    const url = validUrl(input.url);
    const privacy = input.privacy ?? privacyLevels.private;
    checkPassword(input.password);
    if (privacy === privacyLevels.password && input.password === undefined) {
      throw ValidationFailed.of("password", "The password field is required when privacy is 2.");
    }
    const mode = this.checkMode(input.mode ?? "raw");
    const schedule = input.schedule ?? "off";
    const passwordHash =
      privacy === privacyLevels.password ? await hashPassword(input.password as string) : null;
    const now = timestamp();
    const settings = {
      privacy,
      password_hash: passwordHash,
      mode,
      schedule,
      created_at: now,
      updated_at: now,
    };
    if (options.background) {
      const pending = await this.reports.insertPending({
        ...settings,
        user_id: userId,
        team_id: teamId,
        url: url.href,
        final_url: url.href,
        project: projectOf(url.href),
        next_run_at: null,
      });
      return this.enqueue(pending, "create", () => this.reports.delete(owner, pending.id));
    }
    const { report, screenshot } = await this.analyse(url, mode, userId);
    const created = await this.reports.insert({
      ...settings,
      user_id: userId,
      team_id: teamId,
      ...analysisColumns(report),
      next_run_at: nextRunAt(schedule, this.scheduleIntervals, new Date()),
      screenshot: storedScreenshot(screenshot),
    });
    await this.announce(created, "create");
    return created;
  }

  /** Applies the changes; undefined when the workspace has no such report. */
  async update(
    owner: Owner,
    id: number,
    input: UpdateReportInput,
    options: RequestOptions = {},
  ): Promise<ReportRow | undefined> {
    const existing = await this.reports.findIn(owner, id);
    if (!existing) return undefined;
    const { userId } = scopeOf(owner);
    const changes: ReportChanges = await privacyChanges(existing, input);
    if (input.mode !== undefined && input.mode !== existing.mode) changes.mode = this.checkMode(input.mode);
    if (input.schedule !== undefined && input.schedule !== existing.schedule) {
      changes.schedule = input.schedule;
      // Counted from the latest analysis: a report last analysed long ago is due at once.
      const last = existing.generated_at ? new Date(existing.generated_at) : new Date();
      changes.next_run_at = nextRunAt(input.schedule, this.scheduleIntervals, last);
    }
    if (input.results === 1 && !options.background) {
      // A failed re-run throws before anything is written: the report and its history stay as they were.
      const mode = changes.mode ?? existing.mode;
      const { report, screenshot } = await this.analyse(new URL(existing.url), mode, userId);
      const analysis = analysisColumns(report);
      changes.next_run_at = nextRunAt(
        changes.schedule ?? existing.schedule,
        this.scheduleIntervals,
        new Date(),
      );
      changes.updated_at = timestamp();
      const origin = {
        trigger: "rerun" as const,
        mode,
        requestId: null,
        screenshot: storedScreenshot(screenshot),
      };
      // Found in the workspace above; the report's history is keyed by its creator.
      const updated = await this.reports.reanalysed(existing.user_id, id, analysis, origin, changes);
      if (updated) await this.announce(updated, "rerun");
      return updated;
    }
    let updated = existing;
    if (Object.keys(changes).length > 0) {
      changes.updated_at = timestamp();
      const saved = await this.reports.update(owner, id, changes);
      if (!saved) return undefined;
      updated = saved;
    }
    if (input.results === 1) return this.enqueue(updated, "rerun");
    return updated;
  }

  delete(owner: Owner, id: number): Promise<boolean> {
    return this.reports.delete(owner, id);
  }

  /**
   * Queues an analysis of the report (the `analyse-report` job). Should the queue refuse, `undo` (if given)
   * removes what the request stored, so nothing half-made stays behind.
   */
  private async enqueue(
    report: ReportRow,
    trigger: "create" | "rerun",
    undo?: () => Promise<unknown>,
  ): Promise<ReportRow> {
    try {
      const queued = await enqueueAnalysis(this.reports, this.jobs, {
        userId: report.user_id,
        reportId: report.id,
        requestId: randomUUID(),
        trigger,
      });
      return queued ?? report;
    } catch (error) {
      if (undo) await undo();
      throw error;
    }
  }

  /** `rendered` needs a Chromium that starts on this server. */
  private checkMode(mode: AnalysisMode): AnalysisMode {
    const problem = mode === "rendered" ? this.analyzer.chromium.problem() : null;
    if (problem) throw renderingRefused(problem);
    return mode;
  }

  /** Tells the event sink about the complete analysis a report now shows. */
  private async announce(report: ReportRow, trigger: "create" | "rerun"): Promise<void> {
    if (report.analysis_id === null) return;
    await this.events.analysisRecorded({
      userId: report.user_id,
      reportId: report.id,
      analysisId: report.analysis_id,
      status: "complete",
      trigger,
    });
  }

  private async analyse(
    url: URL,
    mode: AnalysisMode,
    userId: number,
  ): Promise<{ report: AnalysisReport; screenshot: Screenshot | null }> {
    return this.capacity.run(async () => {
      try {
        return await this.analyzer.analyse(url.href, { mode, owner: `user ${userId}` });
      } catch (error) {
        if (error instanceof FetchFailure || error instanceof RenderFailure) throw new AnalysisFailed(error);
        if (error instanceof InvalidUrl) throw ValidationFailed.of("url", error.message);
        if (error instanceof ChromiumUnavailable) throw renderingRefused(error.problem);
        throw error;
      }
    });
  }
}

/** The 422 on `mode` when Chromium is missing or will not start here. */
function renderingRefused(problem: string): ValidationFailed {
  return ValidationFailed.of("mode", `The mode field cannot be rendered: ${problem}.`);
}

function validUrl(raw: string): URL {
  try {
    return normaliseSubmittedUrl(raw);
  } catch (error) {
    if (error instanceof InvalidUrl) throw ValidationFailed.of("url", validationMessageFor(error));
    throw error;
  }
}

function validationMessageFor(error: InvalidUrl): string {
  return error.message.replace(/^The url /, "The url field ");
}
