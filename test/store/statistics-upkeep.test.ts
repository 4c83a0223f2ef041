/**
 * PostgreSQL's statistics kept up while a crawl writes fast (src/store/statistics-upkeep.ts): a table grown from
 * nothing past autovacuum's rule is analysed (and the report read by URL then takes its index), a table analysed
 * since is left alone, one process at a time analyses (the others skip while the lock is held), and a store
 * counting its pages analyses on its own every `checkEvery`.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AccountService } from "../../src/accounts/account-service.js";
import { StatisticsUpkeep } from "../../src/store/statistics-upkeep.js";
import { freshDatabase, postgresUrl, type TestDatabase } from "../helpers/api.js";
import { seedColumns } from "../helpers/seed.js";

const reportRows = 3_000;

describe("statistics upkeep on PostgreSQL", () => {
  let database: TestDatabase;
  let client: pg.Client;
  let userId: number;

  const lastAnalysed = async (table: string): Promise<string | null> => {
    const { rows } = await client.query(
      "select coalesce(last_analyze, last_autoanalyze)::text as at from pg_stat_user_tables where schemaname = $1 and relname = $2",
      [database.schema, table],
    );
    return rows[0]?.at ?? null;
  };
  /** The statistics' counters reach the view a moment after the writing transaction commits. */
  const changesSeen = async (table: string, atLeast: number) => {
    for (let waited = 0; waited < 20_000; waited += 100) {
      const { rows } = await client.query(
        "select n_mod_since_analyze as n from pg_stat_user_tables where schemaname = $1 and relname = $2",
        [database.schema, table],
      );
      if (Number(rows[0]?.n ?? 0) >= atLeast) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`${table}: fewer than ${atLeast} changes counted after 20 s`);
  };
  const planOfReportByUrl = async (): Promise<string> => {
    const { rows } = await client.query(
      `explain select id, score, result from reports where user_id = ${userId} and team_id is null
       and url = 'https://site.example/none' order by id desc limit 1`,
    );
    return rows.map((row) => row["QUERY PLAN"]).join("\n");
  };

  beforeAll(async () => {
    database = await freshDatabase("postgres");
    client = new pg.Client({ connectionString: postgresUrl });
    await client.connect();
    await client.query(`set search_path to ${database.schema}`);
    userId = (await new AccountService(database.store).createUser("owner@example.com", null)).account.id;
    for (let start = 0; start < reportRows; start += 500) {
      const rows = Array.from({ length: 500 }, (_, index) =>
        seedColumns(userId, { url: `https://site.example/page-${start + index}`, score: 70 }),
      );
      await database.store.db.insertInto("reports").values(rows).execute();
    }
    await changesSeen("reports", reportRows);
  }, 60_000);
  afterAll(async () => {
    await client?.end();
    await database?.drop();
  });

  it("skips while another process holds the upkeep's lock", async () => {
    const other = new pg.Client({ connectionString: postgresUrl });
    await other.connect();
    try {
      await other.query("select pg_advisory_lock($1)", [0x70677374]);
      expect(await new StatisticsUpkeep(database.store.db).analyseStale()).toEqual([]);
      expect(await lastAnalysed("reports")).toBeNull();
    } finally {
      await other.end();
    }
  });

  it("analyses a table grown past autovacuum's rule, and the report read by URL takes its index", async () => {
    expect(await lastAnalysed("reports")).toBeNull();
    const analysed = await new StatisticsUpkeep(database.store.db).analyseStale();
    expect(analysed).toContain("reports");
    expect(await lastAnalysed("reports")).not.toBeNull();
    expect(await planOfReportByUrl()).toMatch(/Index Scan Backward using reports_user_url on reports/);
    // Nothing changed since: nothing is past the rule any more.
    expect(await new StatisticsUpkeep(database.store.db).analyseStale()).not.toContain("reports");
  });

  it("analyses on its own at every checkEvery-th page stored, in the background", async () => {
    await database.store.db
      .insertInto("reports")
      .values(
        Array.from({ length: 400 }, (_, index) =>
          seedColumns(userId, { url: `https://site.example/more-${index}`, score: 60 }),
        ),
      )
      .execute();
    await changesSeen("reports", 400);
    const before = await lastAnalysed("reports");
    const upkeep = new StatisticsUpkeep(database.store.db, 3);
    upkeep.wrote();
    upkeep.wrote();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await lastAnalysed("reports")).toBe(before);
    upkeep.wrote();
    for (let waited = 0; (await lastAnalysed("reports")) === before && waited < 10_000; waited += 100) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(await lastAnalysed("reports")).not.toBe(before);
  });
});
