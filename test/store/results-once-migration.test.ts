/**
 * Migration 022 stores a report's check results once, on the analysis it shows: a report with several analyses
 * (complete, failed, complete again) written the way the previous version wrote it answers byte for byte as
 * before, in its show and list bodies and in its history (the list and each analysis), on both databases.
 * Migration 023 records a page's failed checks once: pages that had only `check_statuses` get their rows, and a
 * crawl from before either was recorded is marked so that comparing it says nothing about page checks.
 */
import type { Kysely } from "kysely";
import { describe, expect, it } from "vitest";
import { AccountService } from "../../src/accounts/account-service.js";
import { openCrawlStores } from "../../src/crawls/crawl-stores.js";
import { namedPageChecks } from "../../src/crawls/page-check-code-store.js";
import { analysisJson } from "../../src/http/api/v1/analyses/present.js";
import { reportJson } from "../../src/reports/present.js";
import { packResults } from "../../src/store/analysis-document.js";
import { AnalysisStore } from "../../src/store/analysis-store.js";
import { migrate } from "../../src/store/migrations.js";
import { ReportStore } from "../../src/store/report-store.js";
import { databaseKinds } from "../helpers/api.js";
import { runningCrawl } from "../helpers/crawl-rows.js";
import { databaseMigratedTo } from "../helpers/migrated-database.js";
import { seedRow } from "../helpers/seed.js";

/** The migration that last shipped while reports kept a copy of their results. */
const previousLastMigration = "021_crawl_page_checks";

/** A results document unlike the others (each analysis its own), with text JSON escapes and non-ASCII. */
function resultsOf(run: number): string {
  return JSON.stringify({
    title: {
      category: "seo",
      importance: "high",
      status: run % 2 ? "fail" : "pass",
      passed: run % 2 === 0,
      value: `Ünïcödé ✓ "run" ${run}`,
      message: `Run ${run}: <title> & co.`,
      details: { items: [{ html: `<title>${run}</title>` }], truncated: 0 },
    },
  });
}

describe.each(databaseKinds)("results stored once (migration 022) on %s", (kind) => {
  it("answers a report with several analyses byte for byte as before", async () => {
    const { store, drop } = await databaseMigratedTo(kind, previousLastMigration);
    try {
      const old = store.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
      const userId = (await new AccountService(store).createUser("ann@example.com", null)).account.id;
      const report = seedRow(userId, { url: "https://shop.example/", score: 70, results: resultsOf(3) });
      const { id: reportId } = (await old
        .insertInto("reports")
        .values({ ...report })
        .returning("id")
        .executeTakeFirstOrThrow()) as { id: number };
      // Its history as the previous version wrote it: two complete analyses, a failure, the shown one.
      const analysisIds: number[] = [];
      for (const [run, status] of [
        [1, "complete"],
        [2, "failed"],
        [3, "complete"],
      ] as const) {
        const complete = status === "complete";
        const { id } = (await old
          .insertInto("analyses")
          .values({
            report_id: reportId,
            user_id: userId,
            status,
            trigger: run === 1 ? "create" : "rerun",
            mode: "raw",
            url: report.url,
            final_url: complete ? report.final_url : null,
            result: complete ? report.result : null,
            score: complete ? 60 + run : null,
            summary: complete ? report.summary : null,
            categories: complete ? report.categories : null,
            results: complete ? packResults(resultsOf(run)) : null,
            error_reason: complete ? null : "timeout",
            error_message: complete ? null : "The page did not answer within 15 s.",
            generated_at: `2026-01-0${run}T00:00:00.000000Z`,
          })
          .returning("id")
          .executeTakeFirstOrThrow()) as { id: number };
        analysisIds.push(id);
      }
      await old
        .updateTable("reports")
        .set({ analysis_id: analysisIds[2], analyses: 3, score_change: 9 })
        .where("id", "=", reportId)
        .execute();

      const reports = new ReportStore(store);
      const history = new AnalysisStore(store);
      // The list only once migrated: today's list asks for the workspace's column (migration 031).
      const answers = async (migrated = true) => {
        const listed = migrated
          ? await reports.list(userId, { sortBy: "id", direction: "desc", limit: 10, offset: 0 })
          : { rows: [] };
        const page = await history.list(userId, reportId, { direction: "desc", limit: 10, offset: 0 });
        const each = await Promise.all(analysisIds.map((id) => history.find(userId, reportId, id)));
        return {
          listed: listed.rows.map((row) => reportJson(row).toString("base64")),
          history: page.rows.map((row) => analysisJson(row).toString("base64")),
          analyses: each.map((row) => row && analysisJson(row).toString("base64")),
        };
      };
      // Before: the report row's own copy, as the previous version served it.
      const oldRow = (await old
        .selectFrom("reports")
        .selectAll()
        .where("id", "=", reportId)
        .executeTakeFirstOrThrow()) as unknown as Parameters<typeof reportJson>[0];
      const shownBefore = reportJson(oldRow).toString("base64");
      const before = { ...(await answers(false)), listed: [shownBefore] };

      await migrate(store);

      const shown = await reports.findForDisplay(userId, reportId);
      const found = await reports.find(userId, reportId);
      expect(reportJson(shown as NonNullable<typeof shown>).toString("base64")).toBe(shownBefore);
      expect(reportJson(found as NonNullable<typeof found>).toString("base64")).toBe(shownBefore);
      expect(await answers()).toEqual(before);
      expect(JSON.parse(Buffer.from(shownBefore, "base64").toString()).results).toEqual(
        JSON.parse(resultsOf(3)),
      );
    } finally {
      await store.close();
      await drop();
    }
  });
});

describe.each(databaseKinds)("page checks recorded once (migration 023) on %s", (kind) => {
  it("turns statuses into rows, keeps existing rows, and marks crawls that recorded none", async () => {
    const { store, drop } = await databaseMigratedTo(kind, "022_results_once");
    try {
      const old = store.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
      const userId = (await new AccountService(store).createUser("ann@example.com", null)).account.id;
      const stores = openCrawlStores(store);
      const recent = await runningCrawl(stores, userId);
      const early = await runningCrawl(stores, userId);
      const page = async (crawlId: number, path: string, statuses: string | null) =>
        (
          (await old
            .insertInto("crawl_pages")
            .values({
              crawl_id: crawlId,
              url: `https://site.example${path}`,
              depth: 1,
              state: "done",
              status_code: 200,
              score: 80,
              result: "good",
              check_statuses: statuses,
            })
            .returning("id")
            .executeTakeFirstOrThrow()) as { id: number }
        ).id;
      // Analysed between 020 and 021: statuses only.
      const between = await page(recent.id, "/blog/a", '{"image-alt":"fail","title":"warn","hreflang":"na"}');
      // Analysed after 021: statuses and rows (with the message and items 021 kept).
      const later = await page(recent.id, "/about", '{"title":"warn"}');
      await old
        .insertInto("crawl_page_checks")
        .values({
          crawl_id: recent.id,
          page_id: later,
          check_id: "title",
          status: "warn",
          template: "/about",
          message: "The title is short.",
          items: "[]",
        })
        .execute();
      // Analysed before 020: neither.
      await page(early.id, "/", null);

      await migrate(store);

      // Read back by name and status as stored before migration 027 coded them.
      const rows = (await namedPageChecks(store.db, recent.id))
        .map((row) => ({ crawl_id: recent.id, ...row }))
        .sort((a, b) => a.page_id - b.page_id || (a.check_id < b.check_id ? -1 : 1));
      expect(rows).toEqual([
        { crawl_id: recent.id, page_id: between, check_id: "image-alt", status: "fail", template: "/blog/*" },
        { crawl_id: recent.id, page_id: between, check_id: "title", status: "warn", template: "/blog/*" },
        { crawl_id: recent.id, page_id: later, check_id: "title", status: "warn", template: "/about" },
      ]);
      const flags = await store.db
        .selectFrom("crawls")
        .select(["id", "checks_recorded"])
        .orderBy("id")
        .execute();
      expect(flags).toEqual([
        { id: recent.id, checks_recorded: 1 },
        { id: early.id, checks_recorded: 0 },
      ]);
      // The early crawl has nothing to compare page by page; the recent one reads its rows back.
      const compared = [];
      for await (const batch of stores.diffs.comparedPages(early.id, recent.id)) compared.push(...batch);
      expect(compared).toEqual([]);
      expect(await stores.diffs.pageStatuses(recent.id)).toEqual([
        { url: "https://site.example/about", check_statuses: '{"title":"warn"}' },
        { url: "https://site.example/blog/a", check_statuses: '{"title":"warn","image-alt":"fail"}' },
      ]);
    } finally {
      await store.close();
      await drop();
    }
  });
});
