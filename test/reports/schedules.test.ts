/**
 * The schedule sweep on both databases: when several processes sweep at once, a due report is enqueued once;
 * a report whose analysis is pending, or whose schedule is off, is left alone; the claim moves `next_run_at`
 * forward so the next sweep does not enqueue it again before its analysis sets the real time.
 */
import { afterEach, describe, expect, it } from "vitest";
import { AccountService } from "../../src/accounts/account-service.js";
import { defaultScheduleIntervals } from "../../src/config.js";
import { DatabaseJobQueue } from "../../src/jobs/database-job-queue.js";
import { nextRunAt, scheduleDueReportsHandler, sweepEveryMs } from "../../src/reports/schedules.js";
import { ReportStore } from "../../src/store/report-store.js";
import type { ReportSchedule } from "../../src/store/schema.js";
import { databaseKinds, freshDatabase, type TestDatabase } from "../helpers/api.js";
import { seedRow } from "../helpers/seed.js";

describe("schedule intervals", () => {
  it("counts the next run from the last analysis and sweeps often enough for the shortest interval", () => {
    const from = new Date("2026-03-01T10:00:00Z");
    expect(nextRunAt("daily", defaultScheduleIntervals, from)).toBe("2026-03-02T10:00:00.000000Z");
    expect(nextRunAt("weekly", defaultScheduleIntervals, from)).toBe("2026-03-08T10:00:00.000000Z");
    expect(nextRunAt("off", defaultScheduleIntervals, from)).toBeNull();
    expect(sweepEveryMs(defaultScheduleIntervals)).toBe(60_000);
    expect(sweepEveryMs({ daily: 2, weekly: 10 })).toBe(1_000);
    expect(sweepEveryMs({ daily: 40, weekly: 100 })).toBe(10_000);
  });
});

describe.each(databaseKinds)("the schedule sweep on %s", (kind) => {
  let database: TestDatabase;
  afterEach(async () => database.drop());

  it("enqueues each due report once, however many sweeps run at once", async () => {
    database = await freshDatabase(kind);
    const { store } = database;
    const userId = (await new AccountService(store).createUser("sweep@example.com", null)).account.id;
    const reports = new ReportStore(store);
    const past = "2026-01-01T00:00:00.000000Z";
    const future = "2999-01-01T00:00:00.000000Z";
    const make = async (schedule: ReportSchedule, nextRun: string | null, pending = false) => {
      const row = await reports.insert({
        ...seedRow(userId, { url: `https://example.com/${schedule}-${nextRun}-${pending}`, score: 70 }),
        schedule,
        next_run_at: nextRun,
      });
      if (pending) await reports.queueAnalysis(userId, row.id);
      return row.id;
    };
    const due = [await make("daily", past), await make("weekly", past)];
    const notDue = await make("daily", future);
    const pending = await make("daily", past, true);
    const off = await make("off", past);

    // A queue that runs nothing: the enqueued jobs stay as rows to count.
    const queue = new DatabaseJobQueue(store, { workers: 0, leaseMs: 30_000 });
    const sweep = scheduleDueReportsHandler(store, reports, queue);
    await Promise.all([sweep(), sweep(), sweep(), sweep()]);

    const jobs = await store.db
      .selectFrom("jobs")
      .select("payload")
      .where("name", "=", "analyse-report")
      .execute();
    const enqueued = jobs.map((job) => JSON.parse(job.payload) as { reportId: number; trigger: string });
    expect(enqueued.map((job) => job.reportId).sort((a, b) => a - b)).toEqual(due);
    expect(enqueued.every((job) => job.trigger === "schedule")).toBe(true);
    for (const id of due) {
      const report = await reports.find(userId, id);
      expect(report).toMatchObject({ status: "queued", pending_analyses: 1 });
      expect((report?.next_run_at ?? "") > new Date().toISOString()).toBe(true);
    }
    for (const id of [notDue, pending, off]) {
      expect((await reports.find(userId, id))?.next_run_at).toBe(id === notDue ? future : past);
    }
    // Swept again at once: the claimed reports are not due any more.
    await sweep();
    expect(
      await store.db.selectFrom("jobs").select("id").where("name", "=", "analyse-report").execute(),
    ).toHaveLength(2);
    await queue.close();
  });
});
