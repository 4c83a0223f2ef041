import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Selectable } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AccountService } from "../../src/accounts/account-service.js";
import { ConfigError, loadServiceConfig } from "../../src/config.js";
import { reportJson } from "../../src/reports/present.js";
import { unpackResults } from "../../src/store/analysis-document.js";
import { AnalysisStore } from "../../src/store/analysis-store.js";
import { openStore } from "../../src/store/database.js";
import { migrate, migratorOf } from "../../src/store/migrations.js";
import { ReportStore } from "../../src/store/report-store.js";
import type { ReportsTable } from "../../src/store/schema.js";
import type { Store } from "../../src/store/store.js";
import { timestamp } from "../../src/timestamps.js";
import { databaseKinds, freshDatabase, postgresUrl, type TestDatabase } from "../helpers/api.js";
import { seedRow } from "../helpers/seed.js";

/** The migration that last shipped before history existed. */
const previousLastMigration = "003_url_in_list_indexes";

/** A database of the kind as the previous version left it; drop() removes it. */
async function previousVersionDatabase(kind: (typeof databaseKinds)[number]) {
  let store: Store;
  let drop: () => Promise<void>;
  if (kind === "sqlite") {
    const dir = mkdtempSync(join(tmpdir(), "pagegrade-migrate-"));
    store = await openStore(`sqlite:${join(dir, "old.db")}`, { migrate: false });
    drop = async () => rmSync(dir, { recursive: true, force: true });
  } else {
    const schema = `migrate_${randomBytes(6).toString("hex")}`;
    store = await openStore(postgresUrl, { schema, migrate: false });
    drop = async () => {
      const client = new pg.Client({ connectionString: postgresUrl });
      await client.connect();
      await client.query(`drop schema if exists ${schema} cascade`);
      await client.end();
    };
  }
  const { error } = await (await migratorOf(store)).migrateTo(previousLastMigration);
  if (error) throw error;
  return { store, drop };
}

describe.each(databaseKinds)("analysis history on %s", (kind) => {
  it("moves every existing report's analysis into history with nothing lost", async () => {
    const { store, drop } = await previousVersionDatabase(kind);
    try {
      const users = new AccountService(store);
      const ann = (await users.createUser("ann@example.com", null)).account.id;
      const ben = (await users.createUser("ben@example.com", null)).account.id;
      // Reports written the way the previous version's ReportStore.insert wrote them: one row each.
      const bigResults = JSON.stringify(
        Object.fromEntries(
          Array.from({ length: 53 }, (_, index) => [
            `check-${index}`,
            {
              category: "seo",
              importance: "high",
              status: index % 3 === 0 ? "fail" : "pass",
              passed: index % 3 !== 0,
              value: `Ünïcödé ✓ ${index}`,
              message: `Message ${index} with "quotes" and <markup>.`,
              details: { items: [{ html: `<img src="/${index}.png">` }], truncated: 0 },
            },
          ]),
        ),
      );
      const rows = [
        seedRow(ann, { url: "https://a.example/", score: 91, results: bigResults }),
        {
          ...seedRow(ann, { url: "https://b.example/x?y=1", score: 40, privacy: 2 }),
          password_hash: "scrypt$x",
        },
        seedRow(ben, {
          url: "https://c.example/",
          score: 65,
          privacy: 0,
          generatedAt: new Date(Date.UTC(2026, 0, 2)),
        }),
      ];
      for (const row of rows) await store.db.insertInto("reports").values(row).execute();
      // Read as the previous version's table, results column included (migration 022 drops it, 041 the summary
      // and categories).
      const before = (await store.db
        .selectFrom("reports")
        .selectAll()
        .orderBy("id")
        .execute()) as unknown as Array<
        Selectable<ReportsTable> & { results: string; summary: string; categories: string }
      >;

      await migrate(store);

      const reports = new ReportStore(store);
      const analyses = await store.db.selectFrom("analyses").selectAll().orderBy("id").execute();
      expect(analyses).toHaveLength(before.length);
      for (const [index, old] of before.entries()) {
        const analysis = analyses[index];
        expect(analysis).toMatchObject({
          report_id: old.id,
          user_id: old.user_id,
          status: "complete",
          trigger: "create",
          mode: "raw",
          url: old.url,
          final_url: old.final_url,
          result: old.result,
          score: old.score,
          summary: old.summary,
          categories: old.categories,
          error_reason: null,
          error_message: null,
          generated_at: old.generated_at,
        });
        expect(unpackResults(analysis?.results as Buffer).toString()).toBe(old.results);

        // The report serves exactly what it served before, plus its history fields.
        const shown = await reports.findForDisplay(old.user_id, old.id);
        const served = JSON.parse(reportJson(shown as NonNullable<typeof shown>).toString());
        const { user_id: _user, password_hash, summary, categories, results, ...plain } = old;
        expect(served).toEqual({
          ...plain,
          object: "report",
          password: password_hash !== null,
          summary: JSON.parse(summary as string),
          categories: JSON.parse(categories as string),
          results: JSON.parse(results as string),
          analyses: 1,
          analysis_id: analysis?.id,
          score_change: null,
          status: "complete",
          error: null,
          mode: "raw",
          schedule: "off",
          next_run_at: null,
        });
      }
    } finally {
      await store.close();
      await drop();
    }
  });

  describe("the store", () => {
    let database: TestDatabase;
    let owner: number;
    let stranger: number;
    beforeAll(async () => {
      database = await freshDatabase(kind);
      const users = new AccountService(database.store);
      owner = (await users.createUser("owner@example.com", null)).account.id;
      stranger = (await users.createUser("stranger@example.com", null)).account.id;
    });
    afterAll(() => database.drop());

    const analysisOf = (score: number, at: number) => {
      const row = seedRow(0, { url: "https://site.example/", score, generatedAt: new Date(at) });
      const {
        user_id: _u,
        privacy: _p,
        password_hash: _h,
        created_at: _c,
        updated_at: _up,
        ...columns
      } = row;
      return { ...columns, results: JSON.stringify({ marker: score }) };
    };

    it("adds an analysis per store and re-run, with the score's change, ids increasing", async () => {
      const reports = new ReportStore(database.store);
      const history = new AnalysisStore(database.store);
      const created = await reports.insert(seedRow(owner, { url: "https://site.example/", score: 70 }));
      expect(created).toMatchObject({ analyses: 1, score_change: null });
      const rerun = await reports.reanalysed(owner, created.id, analysisOf(64, 1_000), "rerun");
      expect(rerun).toMatchObject({ analyses: 2, score: 64, score_change: -6 });
      expect(rerun?.analysis_id).toBeGreaterThan(created.analysis_id as number);
      const { rows, total } = await history.list(owner, created.id, {
        direction: "asc",
        limit: 10,
        offset: 0,
      });
      expect(total).toBe(2);
      expect(rows.map((row) => [row.trigger, row.score])).toEqual([
        ["create", 70],
        ["rerun", 64],
      ]);
      const latest = await history.find(owner, created.id, rerun?.analysis_id as number);
      expect(latest?.results?.toString()).toBe('{"marker":64}');
      // Another user's report: nothing found, nothing written.
      expect(await history.find(stranger, created.id, rerun?.analysis_id as number)).toBeUndefined();
      expect(await reports.reanalysed(stranger, created.id, analysisOf(1, 2_000), "rerun")).toBeUndefined();
      expect(
        (await history.list(stranger, created.id, { direction: "asc", limit: 10, offset: 0 })).total,
      ).toBe(0);
      expect((await reports.find(owner, created.id))?.score).toBe(64);
    });

    it("records a failed analysis without changing what the report shows", async () => {
      const reports = new ReportStore(database.store);
      const history = new AnalysisStore(database.store);
      const created = await reports.insert(seedRow(owner, { url: "https://down.example/", score: 88 }));
      const failure = {
        url: "https://down.example/",
        reason: "timeout",
        message: "The page did not respond in time.",
        generated_at: timestamp(),
      };
      const id = await reports.recordFailure(owner, created.id, failure, "schedule");
      expect(id).toBeGreaterThan(created.analysis_id as number);
      const after = await reports.find(owner, created.id);
      expect(after).toMatchObject({
        analyses: 2,
        analysis_id: created.analysis_id,
        score: 88,
        results: created.results,
      });
      expect(await history.find(owner, created.id, id as number)).toMatchObject({
        status: "failed",
        trigger: "schedule",
        mode: "raw",
        url: failure.url,
        final_url: null,
        score: null,
        results: null,
        error_reason: "timeout",
        error_message: failure.message,
        generated_at: failure.generated_at,
      });
      expect((await history.previousComplete(owner, created.id))?.id).toBe(created.analysis_id);
      expect(await reports.recordFailure(stranger, created.id, failure, "schedule")).toBeUndefined();
    });

    it("keeps the newest analyses up to the limit, never the one the report shows, and all with 0", async () => {
      const limited = new ReportStore(database.store, { historyLimit: 3 });
      const history = new AnalysisStore(database.store);
      const created = await limited.insert(seedRow(owner, { url: "https://kept.example/", score: 50 }));
      const shown = created.analysis_id as number;
      const failure = {
        url: "https://kept.example/",
        reason: "timeout",
        message: "…",
        generated_at: timestamp(),
      };
      const failed: number[] = [];
      for (let index = 0; index < 4; index++)
        failed.push((await limited.recordFailure(owner, created.id, failure, "schedule")) as number);
      // Newest three are kept, plus the complete analysis the report shows.
      let ids = (await history.list(owner, created.id, { direction: "asc", limit: 10, offset: 0 })).rows.map(
        (row) => row.id,
      );
      expect(ids).toEqual([shown, ...failed.slice(1)]);
      const rerun = await limited.reanalysed(owner, created.id, analysisOf(60, 5_000), "rerun");
      ids = (await history.list(owner, created.id, { direction: "asc", limit: 10, offset: 0 })).rows.map(
        (row) => row.id,
      );
      expect(ids).toEqual([...failed.slice(2), rerun?.analysis_id]);
      expect(rerun?.analyses).toBe(3);

      const unlimited = new ReportStore(database.store, { historyLimit: 0 });
      for (let index = 0; index < 3; index++)
        await unlimited.recordFailure(owner, created.id, failure, "schedule");
      expect((await unlimited.find(owner, created.id))?.analyses).toBe(6);
    });
  });
});

describe("PAGEGRADE_HISTORY_LIMIT", () => {
  it("defaults to 100, takes 0 for all, and refuses anything but a whole number", () => {
    expect(loadServiceConfig({}).historyLimit).toBe(100);
    expect(loadServiceConfig({ PAGEGRADE_HISTORY_LIMIT: "0" }).historyLimit).toBe(0);
    expect(loadServiceConfig({ PAGEGRADE_HISTORY_LIMIT: "7" }).historyLimit).toBe(7);
    expect(() => loadServiceConfig({ PAGEGRADE_HISTORY_LIMIT: "-1" })).toThrow(ConfigError);
    expect(() => loadServiceConfig({ PAGEGRADE_HISTORY_LIMIT: "ten" })).toThrow(
      'PAGEGRADE_HISTORY_LIMIT must be a whole number of at least 0, got "ten"',
    );
  });
});
