/**
 * The rules of reports: creating one analyses the URL synchronously and stores the finished report; the
 * project is the final URL's host; privacy and password follow the contract (a password only where privacy
 * is 2, required there, cleared when leaving it); re-analysis replaces the results only when it succeeds.
 * Every stored analysis is kept in the report's history (the store adds it in the same transaction).
 * Shared by the API and the web pages.
 */

import { hashPassword } from "../accounts/passwords.js";
import type { AnalysisReport, Analyzer } from "../analysis/analyse.js";
import { FetchFailure } from "../analysis/fetch/fetch-failure.js";
import { InvalidUrl, normaliseSubmittedUrl } from "../analysis/submitted-url.js";
import { type EventSink, silentEventSink } from "../events/event-sink.js";
import type {
  AnalysisColumns,
  DisplayRow,
  NewReport,
  ReportListQuery,
  ReportRow,
  ReportStore,
} from "../store/report-store.js";
import { timestamp, toTimestamp } from "../timestamps.js";
import type { AnalysisCapacity } from "./analysis-capacity.js";
import { AnalysisFailed, ValidationFailed } from "./errors.js";

export const privacyLevels = { public: 0, private: 1, password: 2 } as const;
export const maxPasswordLength = 128;

export interface CreateReportInput {
  url: string;
  privacy?: number;
  password?: string;
}

export interface UpdateReportInput {
  privacy?: number;
  password?: string;
  /** 1 re-runs the analysis. */
  results?: number;
}

export class ReportService {
  constructor(
    private readonly reports: ReportStore,
    private readonly analyzer: Analyzer,
    private readonly capacity: AnalysisCapacity,
    private readonly events: EventSink = silentEventSink,
  ) {}

  list(userId: number, query: ReportListQuery) {
    return this.reports.list(userId, query);
  }

  show(userId: number, id: number): Promise<DisplayRow | undefined> {
    return this.reports.findForDisplay(userId, id);
  }

  async create(userId: number, input: CreateReportInput): Promise<ReportRow> {
    const url = validUrl(input.url);
    const privacy = input.privacy ?? privacyLevels.private;
    checkPassword(input.password);
    if (privacy === privacyLevels.password && input.password === undefined) {
      throw ValidationFailed.of("password", "The password field is required when privacy is 2.");
    }
    const passwordHash =
      privacy === privacyLevels.password ? await hashPassword(input.password as string) : null;
    const report = await this.analyse(url);
    const now = timestamp();
    const created = await this.reports.insert({
      user_id: userId,
      ...analysisColumns(report),
      privacy,
      password_hash: passwordHash,
      created_at: now,
      updated_at: now,
    });
    await this.announce(created, "create");
    return created;
  }

  /** Applies the changes; undefined when the user has no such report. */
  async update(userId: number, id: number, input: UpdateReportInput): Promise<ReportRow | undefined> {
    const existing = await this.reports.find(userId, id);
    if (!existing) return undefined;
    checkPassword(input.password);
    const privacy = input.privacy ?? existing.privacy;
    const changes: Partial<NewReport> = {};
    if (privacy !== existing.privacy) changes.privacy = privacy;
    if (privacy === privacyLevels.password) {
      if (input.password !== undefined) changes.password_hash = await hashPassword(input.password);
      else if (existing.password_hash === null) {
        throw ValidationFailed.of("password", "The password field is required when privacy is 2.");
      }
    } else if (existing.password_hash !== null) {
      changes.password_hash = null;
    }
    if (input.results === 1) {
      // A failed re-run throws before anything is written: the report and its history stay as they were.
      const analysis = analysisColumns(await this.analyse(new URL(existing.url)));
      changes.updated_at = timestamp();
      const updated = await this.reports.reanalysed(userId, id, analysis, "rerun", changes);
      if (updated) await this.announce(updated, "rerun");
      return updated;
    }
    if (Object.keys(changes).length === 0) return existing;
    changes.updated_at = timestamp();
    return this.reports.update(userId, id, changes);
  }

  delete(userId: number, id: number): Promise<boolean> {
    return this.reports.delete(userId, id);
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

  private async analyse(url: URL): Promise<AnalysisReport> {
    return this.capacity.run(async () => {
      try {
        return (await this.analyzer.analyse(url.href)).report;
      } catch (error) {
        if (error instanceof FetchFailure) throw new AnalysisFailed(error);
        if (error instanceof InvalidUrl) throw ValidationFailed.of("url", error.message);
        throw error;
      }
    });
  }
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

function checkPassword(password: string | undefined): void {
  if (password !== undefined && password.length > maxPasswordLength) {
    throw ValidationFailed.of(
      "password",
      `The password field must not be greater than ${maxPasswordLength} characters.`,
    );
  }
}

/** A finished analysis as the store keeps it: its documents as JSON text, its time as a timestamp. */
export function analysisColumns(report: AnalysisReport): AnalysisColumns {
  return {
    url: report.url,
    final_url: report.final_url,
    project: report.project,
    result: report.result,
    score: report.score,
    summary: JSON.stringify(report.summary),
    categories: JSON.stringify(report.categories),
    results: JSON.stringify(report.results),
    generated_at: toTimestamp(report.generated_at),
  };
}
