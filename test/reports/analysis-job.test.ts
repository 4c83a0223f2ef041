/**
 * The `analyse-report` job's promises, with a real store, a real analyzer and a page on 127.0.0.1: a job run
 * twice (a worker died after storing) stores one analysis and announces it again with the same id; two
 * requests queued at once are two analyses and the report shows `queued` until both are done; an error other
 * than the page's is retried, and recorded as a failed analysis after the last attempt.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AccountService } from "../../src/accounts/account-service.js";
import { Analyzer } from "../../src/analysis/analyse.js";
import { defaultScheduleIntervals, loadAnalysisConfig } from "../../src/config.js";
import type { AnalysisRecorded, EventSink } from "../../src/events/event-sink.js";
import type { JobContext } from "../../src/jobs/job-queue.js";
import {
  type AnalyseReportPayload,
  analyseReportHandler,
  analysisJobAttempts,
} from "../../src/reports/analysis-job.js";
import { ReportStore } from "../../src/store/report-store.js";
import { freshDatabase, type TestDatabase } from "../helpers/api.js";
import { html, type LocalServer, startServer } from "../helpers/local-server.js";
import { pendingRow } from "../helpers/seed.js";

const page = `<!doctype html><html lang="en"><head><title>Bicycle repair at home</title></head><body><h1>Repair</h1></body></html>`;

function jobOf(payload: AnalyseReportPayload, attempt = 1): JobContext<AnalyseReportPayload> {
  return { id: "1", name: "analyse-report", payload, attempt, signal: new AbortController().signal };
}

describe("the analyse-report job", () => {
  let database: TestDatabase;
  let site: LocalServer;
  let analyzer: Analyzer;
  let reports: ReportStore;
  let userId: number;
  const announced: AnalysisRecorded[] = [];
  const events: EventSink = {
    analysisRecorded: async (event) => {
      announced.push(event);
    },
    crawlFinished: async () => {},
  };

  beforeAll(async () => {
    database = await freshDatabase("sqlite");
    site = await startServer({ "/": html(page) });
    analyzer = new Analyzer(
      loadAnalysisConfig({ PAGEGRADE_ALLOW_PRIVATE_NETWORKS: "1", PAGEGRADE_PROBE_CACHE_SECONDS: "0" }),
    );
    reports = new ReportStore(database.store);
    userId = (await new AccountService(database.store).createUser("jobs@example.com", null)).account.id;
  });
  afterAll(async () => {
    await analyzer.close();
    await site.close();
    await database.drop();
  });

  const pendingReport = () => reports.insertPending(pendingRow(userId, `${site.url}/`));
  const handler = (job: JobContext<AnalyseReportPayload>) =>
    analyseReportHandler({ reports, analyzer, events, scheduleIntervals: defaultScheduleIntervals })(job);

  it("stores one analysis when run twice, and announces it both times with the same id", async () => {
    const report = await pendingReport();
    await reports.queueAnalysis(userId, report.id);
    const payload = { userId, reportId: report.id, requestId: "request-twice", trigger: "create" as const };
    announced.length = 0;
    await handler(jobOf(payload));
    await handler(jobOf(payload, 2));
    const history = await database.store.db
      .selectFrom("analyses")
      .select(["id", "status"])
      .where("report_id", "=", report.id)
      .execute();
    expect(history).toHaveLength(1);
    expect(announced.map((event) => event.analysisId)).toEqual([history[0]?.id, history[0]?.id]);
    expect(await reports.find(userId, report.id)).toMatchObject({
      status: "complete",
      pending_analyses: 0,
      analyses: 1,
      analysis_id: history[0]?.id,
    });
  });

  it("shows the report queued until every queued request has stored its analysis", async () => {
    const report = await pendingReport();
    await reports.queueAnalysis(userId, report.id);
    await reports.queueAnalysis(userId, report.id);
    await handler(jobOf({ userId, reportId: report.id, requestId: "first", trigger: "create" }));
    expect(await reports.find(userId, report.id)).toMatchObject({ status: "queued", pending_analyses: 1 });
    await handler(jobOf({ userId, reportId: report.id, requestId: "second", trigger: "rerun" }));
    expect(await reports.find(userId, report.id)).toMatchObject({
      status: "complete",
      pending_analyses: 0,
      analyses: 2,
    });
  });

  it("retries an error that is not the page's, and records it as failed after the last attempt", async () => {
    // A stored URL the engine refuses (never stored by the service, which validates first): an engine error,
    // not the page's answer.
    const report = await reports.insertPending(pendingRow(userId, "not a url", "none"));
    await reports.queueAnalysis(userId, report.id);
    const payload = { userId, reportId: report.id, requestId: "broken", trigger: "create" as const };
    await expect(handler(jobOf(payload, 1))).rejects.toThrow();
    expect(await reports.find(userId, report.id)).toMatchObject({ status: "running", analyses: 0 });
    await handler(jobOf(payload, analysisJobAttempts));
    expect(await reports.find(userId, report.id)).toMatchObject({
      status: "failed",
      error_reason: "internal-error",
      pending_analyses: 0,
      analyses: 1,
      analysis_id: null,
    });
  });

  it("does nothing for a report deleted while its job waited", async () => {
    const report = await pendingReport();
    await reports.delete(userId, report.id);
    announced.length = 0;
    await handler(jobOf({ userId, reportId: report.id, requestId: "gone", trigger: "create" }));
    expect(announced).toEqual([]);
  });
});
