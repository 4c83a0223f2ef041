/**
 * The sweep that announces crawls whose process died before announcing their end (crawl-announcements.ts), on
 * real SQLite and PostgreSQL rows: a crawl whose announcement fails is left for the next sweep without holding
 * up the others, and the sweep then fails saying how many; and the maintenance job runs its other tasks when
 * one fails.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { announceMissedCrawls } from "../../src/crawls/crawl-announcements.js";
import type { CrawlFinished, EventSink } from "../../src/events/event-sink.js";
import { maintenanceHandler } from "../../src/jobs/maintenance.js";
import { timestamp } from "../../src/timestamps.js";
import { databaseKinds } from "../helpers/api.js";
import { type CrawlStoresTest, crawlStoresOn, runningCrawl } from "../helpers/crawl-rows.js";

describe.each(databaseKinds)("announcing missed crawls on %s", (kind) => {
  let test: CrawlStoresTest;
  beforeAll(async () => {
    test = await crawlStoresOn(kind);
  }, 60_000);
  afterAll(async () => {
    await test?.database.drop();
  });

  it("announces every other crawl when one's announcement fails, and leaves that one for the next sweep", async () => {
    const { crawls } = test.stores;
    const ended = timestamp(new Date(Date.now() - 3_600_000));
    const ids: number[] = [];
    for (const status of ["complete", "failed", "complete"] as const) {
      const crawl = await runningCrawl(test.stores, test.userId);
      await crawls.update(crawl.id, { status, finished_at: ended, announced_at: null });
      ids.push(crawl.id);
    }
    const [first, second, third] = ids as [number, number, number];
    const announced: CrawlFinished[] = [];
    const failingFirst: EventSink = {
      async analysisRecorded() {},
      async crawlFinished(event) {
        if (event.crawlId === first) throw new Error("the mail store is unreachable");
        announced.push(event);
      },
    };
    const sweep = { crawls, events: failingFirst };
    await expect(announceMissedCrawls(sweep, Date.now())).rejects.toThrow(
      "1 of 3 crawls could not be announced",
    );
    expect(announced.map((event) => [event.crawlId, event.status])).toEqual([
      [second, "failed"],
      [third, "complete"],
    ]);
    const announcedAt = async (id: number) =>
      (
        await test.database.store.db
          .selectFrom("crawls")
          .select("announced_at")
          .where("id", "=", id)
          .executeTakeFirstOrThrow()
      ).announced_at;
    expect(await announcedAt(first)).toBeNull();
    expect(await announcedAt(second)).not.toBeNull();

    // The sinks answer again: the next sweep announces the one left, and only it.
    announced.length = 0;
    expect(
      await announceMissedCrawls(
        {
          crawls,
          events: {
            ...failingFirst,
            crawlFinished: async (event) => {
              announced.push(event);
            },
          },
        },
        Date.now(),
      ),
    ).toBe(1);
    expect(announced.map((event) => event.crawlId)).toEqual([first]);
    expect(await announcedAt(first)).not.toBeNull();
  });
});

describe("the maintenance job's tasks", () => {
  it("all run when one fails, and the job fails with that task's error (or every failed task's)", async () => {
    const ran: string[] = [];
    const task = (name: string, error?: Error) => async () => {
      ran.push(name);
      if (error) throw error;
    };
    const job = { id: "1", name: "maintenance", payload: null, attempt: 1 } as Parameters<
      ReturnType<typeof maintenanceHandler>
    >[0];
    const broken = new Error("sessions table locked");
    await expect(
      maintenanceHandler([task("announce", broken), task("sessions"), task("jobs")])(job),
    ).rejects.toBe(broken);
    expect(ran).toEqual(["announce", "sessions", "jobs"]);
    ran.length = 0;
    await expect(
      maintenanceHandler([task("announce", broken), task("sessions", new Error("again")), task("jobs")])(job),
    ).rejects.toThrow("2 maintenance tasks failed");
    expect(ran).toEqual(["announce", "sessions", "jobs"]);
  });
});
