/**
 * Migration 035 on SQLite and PostgreSQL: a user's own report lists (`user_id = ? and team_id is null`, what the
 * workspace seam asks) are served by the partial `reports_user_*` indexes, the total from the index alone on
 * SQLite; a team's by migration 031's `reports_team_*`; `reports_user_url` stays whole for a crawl's lookups.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AccountService } from "../../src/accounts/account-service.js";
import { ReportStore } from "../../src/store/report-store.js";
import { databaseKinds, freshDatabase, type TestDatabase } from "../helpers/api.js";
import { seedRow } from "../helpers/seed.js";

describe.each(databaseKinds)("own workspace indexes on %s", (kind) => {
  let database: TestDatabase;
  let userId = 0;

  beforeAll(async () => {
    database = await freshDatabase(kind);
    userId = (await new AccountService(database.store).createUser("ann@example.com", null)).account.id;
    const reports = new ReportStore(database.store);
    for (let n = 0; n < 30; n++) {
      await reports.insert(seedRow(userId, { url: `https://shop.example/${n}`, score: 40 + n }));
    }
  });
  afterAll(async () => {
    await database?.drop();
  });

  const plan = async (query: string): Promise<string> => {
    const db = database.store.db;
    if (kind === "postgres") {
      return db.connection().execute(async (connection) => {
        // Thirty rows: the planner would read the table whole; the question is which index it can use.
        await sql`set enable_seqscan = off`.execute(connection);
        const rows = (await sql.raw<Record<string, string>>(`explain ${query}`).execute(connection)).rows;
        await sql`reset enable_seqscan`.execute(connection);
        return rows.map((row) => Object.values(row).join(" ")).join("\n");
      });
    }
    const rows = (await sql.raw<{ detail: string }>(`explain query plan ${query}`).execute(db)).rows;
    return rows.map((row) => row.detail).join("\n");
  };

  it("serves the user's own list and its total from the partial indexes", async () => {
    const own = `user_id = ${userId} and team_id is null`;
    const total = await plan(`select count(*) from reports where ${own}`);
    expect(total).toMatch(kind === "postgres" ? /reports_user_/ : /COVERING INDEX reports_user_/);
    expect(
      await plan(
        `select id from reports where ${own} and project = 'shop.example' order by score desc limit 10`,
      ),
    ).toMatch(kind === "postgres" ? /reports_user_project_/ : /reports_user_project_score/);
    expect(await plan(`select id from reports where team_id = 1 order by id desc limit 10`)).toMatch(
      /reports_team_id/,
    );
  });

  it("makes the list indexes partial and keeps reports_user_url whole", async () => {
    const definitions =
      kind === "postgres"
        ? (
            await sql<{
              name: string;
              definition: string;
            }>`select indexname as name, indexdef as definition from pg_indexes
              where schemaname = current_schema() and indexname like 'reports_user_%'`.execute(
              database.store.db,
            )
          ).rows
        : (
            await sql<{ name: string; definition: string }>`select name, sql as definition from sqlite_master
              where type = 'index' and name like 'reports_user_%'`.execute(database.store.db)
          ).rows;
    expect(definitions.length).toBe(16);
    for (const { name, definition } of definitions) {
      expect(/where .*team_id.* is null/i.test(definition), name).toBe(name !== "reports_user_url");
    }
  });
});
