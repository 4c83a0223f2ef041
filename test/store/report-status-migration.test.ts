import type { Kysely } from "kysely";
import { describe, expect, it } from "vitest";
import { AccountService } from "../../src/accounts/account-service.js";
import { migrate } from "../../src/store/migrations.js";
import { ReportStore } from "../../src/store/report-store.js";
import { databaseKinds } from "../helpers/api.js";
import { databaseMigratedTo } from "../helpers/migrated-database.js";
import { seedRow } from "../helpers/seed.js";

const previousLastMigration = "010_reports_version";

describe.each(databaseKinds)("migration 011 (report status) on %s", (kind) => {
  it("keeps every report, its history and what depends on the table, and adds the new columns", async () => {
    const { store, drop } = await databaseMigratedTo(kind, previousLastMigration);
    try {
      // The previous version's tables, written the way it wrote them.
      const old = store.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
      const userId = (await new AccountService(store).createUser("ann@example.com", null)).account.id;
      const ids: number[] = [];
      for (let index = 0; index < 5; index++) {
        const { id } = (await old
          .insertInto("reports")
          .values({ ...seedRow(userId, { url: `https://shop.example/item-${index}`, score: 50 + index }) })
          .returning("id")
          .executeTakeFirstOrThrow()) as { id: number };
        ids.push(id);
        await old
          .insertInto("analyses")
          .values({
            report_id: id,
            user_id: userId,
            status: "complete",
            trigger: "create",
            mode: "raw",
            url: `https://shop.example/item-${index}`,
            generated_at: "2026-01-01T00:00:00.000000Z",
          })
          .execute();
      }
      // The newest report is deleted: its id must never come back.
      const deletedId = ids.pop() as number;
      await old.deleteFrom("reports").where("id", "=", deletedId).execute();
      const before = await old.selectFrom("reports").selectAll().orderBy("id").execute();

      await migrate(store);

      const after = await store.db.selectFrom("reports").selectAll().orderBy("id").execute();
      expect(
        after.map(
          ({
            status,
            error_reason,
            error_message,
            mode,
            schedule,
            next_run_at,
            pending_analyses,
            analysis_id,
            analyses,
            team_id,
            ...rest
          }) => {
            // The report had results but showed no analysis: migration 022 makes them its newest analysis.
            expect(analysis_id).not.toBeNull();
            expect(analyses).toBe(1);
            expect({
              status,
              error_reason,
              error_message,
              mode,
              schedule,
              next_run_at,
              pending_analyses,
              team_id,
            }).toEqual({
              status: "complete",
              error_reason: null,
              error_message: null,
              mode: "raw",
              schedule: "off",
              next_run_at: null,
              pending_analyses: 0,
              // Migration 031: every existing report stays in its user's own workspace.
              team_id: null,
            });
            return rest;
          },
        ),
      ).toEqual(
        before.map(
          ({
            results: _results,
            summary: _summary,
            categories: _categories,
            analysis_id: _shown,
            analyses: _count,
            ...rest
          }) => rest,
        ),
      );
      expect(
        await store.db.selectFrom("analyses").select("report_id").orderBy("report_id").execute(),
      ).toEqual(ids.flatMap((id) => [{ report_id: id }, { report_id: id }]));
      const reports = new ReportStore(store);
      for (const row of before) {
        const shown = await reports.find(userId, row.id as number);
        expect(shown?.results?.toString()).toBe(row.results);
        // Migration 041: the summary and category scores are read from the analysis the report shows.
        expect([shown?.summary, shown?.categories]).toEqual([row.summary, row.categories]);
      }
      // The URL search (FTS5 triggers on SQLite, the trigram index on PostgreSQL) still finds a report.
      const found = await reports.list(userId, {
        search: "item-2",
        sortBy: "id",
        direction: "desc",
        limit: 10,
        offset: 0,
      });
      expect(found.rows.map((row) => row.id)).toEqual([ids[2]]);
      // The reports-version triggers still fire.
      const version = async () =>
        Number(
          (
            await store.db
              .selectFrom("users")
              .select("reports_version")
              .where("id", "=", userId)
              .executeTakeFirstOrThrow()
          ).reports_version,
        );
      const versionBefore = await version();
      await reports.update(userId, ids[0] as number, { privacy: 0 });
      expect(await version()).toBeGreaterThan(versionBefore);
      // A report may now exist before its first analysis; ids continue past the deleted one.
      const pending = await reports.insertPending({
        user_id: userId,
        url: "https://shop.example/new",
        final_url: "https://shop.example/new",
        project: "shop.example",
        privacy: 1,
        password_hash: null,
        mode: "raw",
        schedule: "off",
        next_run_at: null,
        created_at: "2026-01-02T00:00:00.000000Z",
        updated_at: "2026-01-02T00:00:00.000000Z",
      });
      expect(pending).toMatchObject({ status: "queued", result: null, score: null, results: null });
      expect(pending.id).toBeGreaterThan(deletedId);
      // Deleting a report still deletes its history.
      await reports.delete(userId, ids[1] as number);
      expect(
        await store.db
          .selectFrom("analyses")
          .select("id")
          .where("report_id", "=", ids[1] as number)
          .execute(),
      ).toEqual([]);
    } finally {
      await store.close();
      await drop();
    }
  });
});
