/**
 * Migration 031 (teams) over a database the previous version left: every existing report, crawl and webhook stays
 * in its user's own workspace (team_id NULL), users are not disabled, and the team list indexes exist.
 */
import { type Kysely, sql } from "kysely";
import { describe, expect, it } from "vitest";
import { AccountService } from "../../src/accounts/account-service.js";
import { migrate } from "../../src/store/migrations.js";
import { databaseKinds } from "../helpers/api.js";
import { databaseMigratedTo } from "../helpers/migrated-database.js";
import { seedColumns } from "../helpers/seed.js";

describe.each(databaseKinds)("migration 031 (teams) on %s", (kind) => {
  it("keeps every existing row in its user's own workspace", async () => {
    const { store, drop } = await databaseMigratedTo(kind, "030_mail");
    try {
      const old = store.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
      const userId = (await new AccountService(store).createUser("ann@example.com", null)).account.id;
      await old
        .insertInto("reports")
        .values(seedColumns(userId, { url: "https://shop.example/", score: 70 }))
        .execute();
      await old
        .insertInto("webhooks")
        .values({
          user_id: userId,
          url: "https://hooks.example/",
          events: "report.analysed",
          secret: "x",
          secret_hint: "x",
          enabled: 1,
          created_at: "2026-01-01T00:00:00.000000Z",
          updated_at: "2026-01-01T00:00:00.000000Z",
        })
        .execute();

      await migrate(store);

      for (const table of ["reports", "webhooks"]) {
        const rows = await old.selectFrom(table).select(["user_id", "team_id"]).execute();
        expect(rows, table).toEqual([{ user_id: userId, team_id: null }]);
      }
      expect(await old.selectFrom("users").select("disabled_at").execute()).toEqual([{ disabled_at: null }]);
      const indexes =
        kind === "postgres"
          ? await sql<{
              name: string;
            }>`select indexname as name from pg_indexes where schemaname = current_schema()`.execute(store.db)
          : await sql<{ name: string }>`select name from sqlite_master where type = 'index'`.execute(
              store.db,
            );
      const names = indexes.rows.map((row) => row.name);
      expect(names.filter((name) => name.startsWith("reports_team_"))).toHaveLength(16);
      expect(names).toEqual(expect.arrayContaining(["crawls_team", "webhooks_team", "team_members_user"]));
    } finally {
      await store.close();
      await drop();
    }
  });
});
