/**
 * Migration 041 stores a report's summary and category scores once, on the analysis it shows: the report's own
 * copies are dropped, a shown analysis that lacked them (none should) gets the report's, every other analysis
 * keeps its own, and the report answers as before, on both databases.
 */
import type { Kysely } from "kysely";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { AccountService } from "../../src/accounts/account-service.js";
import { reportJson } from "../../src/reports/present.js";
import { packResults } from "../../src/store/analysis-document.js";
import { migrate } from "../../src/store/migrations.js";
import { ReportStore } from "../../src/store/report-store.js";
import { databaseKinds } from "../helpers/api.js";
import { databaseMigratedTo } from "../helpers/migrated-database.js";
import { seedRow } from "../helpers/seed.js";

const previousLastMigration = "040_team_change_notices";

describe.each(databaseKinds)("summary and categories stored once (migration 041) on %s", (kind) => {
  it("moves them to the shown analysis and answers as before", async () => {
    const { store, drop } = await databaseMigratedTo(kind, previousLastMigration);
    try {
      const old = store.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
      const userId = (await new AccountService(store).createUser("ann@example.com", null)).account.id;
      const { results, ...report } = seedRow(userId, { url: "https://shop.example/", score: 70 });
      const insertReport = async (summary: string | null) =>
        (
          (await old
            .insertInto("reports")
            .values({ ...report, status: "complete", summary })
            .returning("id")
            .executeTakeFirstOrThrow()) as { id: number }
        ).id;
      const addAnalysis = async (reportId: number, summary: string | null, categories: string | null) =>
        (
          (await old
            .insertInto("analyses")
            .values({
              report_id: reportId,
              user_id: userId,
              status: "complete",
              trigger: "create",
              mode: "raw",
              url: report.url,
              final_url: report.url,
              result: report.result,
              score: report.score,
              summary,
              categories,
              results: packResults(results),
              generated_at: report.generated_at,
            })
            .returning("id")
            .executeTakeFirstOrThrow()) as { id: number }
        ).id;
      const show = async (reportId: number, analysisId: number) =>
        old
          .updateTable("reports")
          .set({ analysis_id: analysisId, analyses: 2 })
          .where("id", "=", reportId)
          .execute();

      // A report whose shown analysis has its documents (every report the service wrote), one whose shown
      // analysis lacks them (the report's copy is then the only one), each with an older analysis of its own.
      const olderSummary = JSON.stringify({ checks: 1, passed: 1, warnings: 0, failed: 0 });
      const usual = await insertReport(report.summary);
      const usualOlder = await addAnalysis(usual, olderSummary, "{}");
      await show(usual, await addAnalysis(usual, report.summary, report.categories));
      const lacking = await insertReport(report.summary);
      await addAnalysis(lacking, olderSummary, "{}");
      const lackingShown = await addAnalysis(lacking, null, null);
      await show(lacking, lackingShown);
      const reports = new ReportStore(store);
      const before = await old.selectFrom("reports").select(["id", "summary", "categories"]).execute();
      expect(before).toHaveLength(2);

      await migrate(store);

      for (const id of [usual, lacking]) {
        const shown = await reports.find(userId, id);
        expect([shown?.summary, shown?.categories]).toEqual([report.summary, report.categories]);
        const display = await reports.findForDisplay(userId, id);
        const body = JSON.parse(reportJson(display as NonNullable<typeof display>).toString());
        expect(body.summary).toEqual(JSON.parse(report.summary));
        expect(body.categories).toEqual(JSON.parse(report.categories));
      }
      const older = await store.db
        .selectFrom("analyses")
        .select(["summary"])
        .where("id", "=", usualOlder)
        .execute();
      expect(older).toEqual([{ summary: olderSummary }]);
      const filled = await store.db
        .selectFrom("analyses")
        .select(["summary", "categories"])
        .where("id", "=", lackingShown)
        .executeTakeFirst();
      expect(filled).toEqual({ summary: report.summary, categories: report.categories });
      // The report's own copies are gone.
      const columns =
        kind === "sqlite"
          ? (await sql<{ name: string }>`select name from pragma_table_info('reports')`.execute(store.db))
              .rows
          : (
              await sql<{
                name: string;
              }>`select column_name as name from information_schema.columns where table_schema = current_schema() and table_name = 'reports'`.execute(
                store.db,
              )
            ).rows;
      const names = columns.map((column) => column.name);
      expect(names).toContain("analysis_id");
      expect(names).not.toContain("summary");
      expect(names).not.toContain("categories");
    } finally {
      await store.close();
      await drop();
    }
  });
});
