/**
 * `pagegrade migrate` refusing what it must and surviving a SIGKILL, as real processes against real PostgreSQL
 * schemas: a target holding tables of its own or rows of a finished copy is refused and left as it was; a wrong
 * URL is one clear line, no stack trace; a copy killed halfway commits nothing (every table of the target stays
 * empty, so no service ever starts on part of the data) and a re-run then copies everything; and a role that is
 * not a superuser, owning its schema, copies with the triggers off all the same.
 */
import { randomBytes } from "node:crypto";
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openCrawlStores } from "../../src/crawls/crawl-stores.js";
import { openStore } from "../../src/store/database.js";
import { sqliteDatabaseClass } from "../../src/store/sqlite-driver.js";
import { postgresUrl } from "../helpers/api.js";
import { crawlOwner, runningCrawl } from "../helpers/crawl-rows.js";
import { eventually } from "../helpers/job-queues.js";
import { pagegrade, startPagegrade } from "../helpers/pagegrade-command.js";

const dir = mkdtempSync(join(tmpdir(), "pagegrade-migrate-"));
const source = join(dir, "source.db");
const schemas: string[] = [];
/** Findings in the source: enough that copying them takes seconds, so the copy can be killed in the middle. */
const findings = 200_000;

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A fresh schema and the URL whose search_path starts with it. */
async function freshSchema(): Promise<{ schema: string; url: string }> {
  const schema = `migrate_${randomBytes(5).toString("hex")}`;
  schemas.push(schema);
  await admin((client) => client.query(`create schema ${schema}`));
  return { schema, url: `${postgresUrl}?options=-c%20search_path%3D${schema}%2Cpublic` };
}

async function rowsIn(schema: string): Promise<Record<string, number>> {
  return admin(async (client) => {
    const { rows } = await client.query<{ name: string }>(
      "select table_name as name from information_schema.tables where table_schema = $1 and table_type = 'BASE TABLE' and table_name not like 'kysely%'",
      [schema],
    );
    const counts: Record<string, number> = {};
    for (const { name } of rows) {
      const counted = await client.query(`select count(*)::int as n from ${schema}.${name}`);
      counts[name] = counted.rows[0].n;
    }
    return counts;
  });
}

const migrate = (url: string) => pagegrade(["migrate", "--to", url], { DATABASE_URL: `sqlite:${source}` });

beforeAll(async () => {
  // A user, a crawl, and many findings, written the way the service writes them (its migrations, its stores).
  const store = await openStore(`sqlite:${source}`);
  const userId = await crawlOwner(store);
  const crawl = await runningCrawl(openCrawlStores(store), userId);
  await store.close();
  const database = new (sqliteDatabaseClass())(source);
  const insert = database.prepare(
    "insert into crawl_findings (crawl_id, check_id, position, fingerprint, item) values (?, 'broken-links', ?, ?, ?)",
  );
  database.transaction(() => {
    for (let position = 0; position < findings; position++)
      insert.run(crawl.id, position, `fingerprint-${position}`, JSON.stringify({ url: `/page/${position}` }));
  })();
  database.close();
}, 120_000);

afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await admin(async (client) => {
    for (const schema of schemas) await client.query(`drop schema if exists ${schema} cascade`);
  });
});

describe("pagegrade migrate", () => {
  it("survives a SIGKILL halfway: nothing committed, then a re-run copies everything", async () => {
    const target = await freshSchema();
    const killed = startPagegrade(["migrate", "--to", target.url], { DATABASE_URL: `sqlite:${source}` });
    // Killed once the users and the crawl are copied and the findings are on their way.
    await eventually(
      () => /users: 1 row copied/.test(killed.stdout()) && /crawl_findings: [\d,]+ of /.test(killed.stdout()),
      "the copy to reach the findings",
      60_000,
    );
    killed.child.kill("SIGKILL");
    await killed.exited;
    expect(killed.stdout()).not.toContain("Done");
    // The server ends the dead client's transaction; until then its rows are invisible, and after it they are gone.
    const afterKill = await rowsIn(target.schema);
    expect(Object.keys(afterKill)).toContain("crawl_findings");
    expect(Object.values(afterKill).every((count) => count === 0)).toBe(true);

    const rerun = await migrate(target.url);
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stdout).toContain(
      `crawl_findings: ${findings.toLocaleString("en")} rows copied, count verified`,
    );
    const copied = await rowsIn(target.schema);
    expect(copied).toMatchObject({ users: 1, crawls: 1, crawl_findings: findings, report_changes: 0 });
  }, 180_000);

  it("needs no superuser: the role that owns the tables turns their triggers off", async () => {
    const role = `mover_${randomBytes(5).toString("hex")}`;
    const schema = `migrate_${randomBytes(5).toString("hex")}`;
    await admin(async (client) => {
      await client.query(`create role ${role} login nosuperuser`);
      await client.query(`create schema ${schema} authorization ${role}`);
    });
    try {
      const asRole = postgresUrl.replace(/\/\/[^@/]*@/, `//${role}@`);
      const moved = await migrate(`${asRole}?options=-c%20search_path%3D${schema}%2Cpublic`);
      expect(moved.code, moved.stderr).toBe(0);
      expect(moved.stdout).toContain(
        "Triggers off during the copy on analyses, api_keys, crawls, reports, team_members, team_report_changes, teams, users",
      );
      expect(await rowsIn(schema)).toMatchObject({ users: 1, crawl_findings: findings });
    } finally {
      await admin(async (client) => {
        await client.query(`drop schema if exists ${schema} cascade`);
        await client.query(`drop role if exists ${role}`);
      });
    }
  }, 180_000);

  it("refuses a target holding a finished copy, and one holding tables of its own", async () => {
    const target = await freshSchema();
    const first = await migrate(target.url);
    expect(first.code, first.stderr).toBe(0);
    const again = await migrate(target.url);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^pagegrade: migrate: the target is not empty: .*crawl_findings.*users/);
    expect(again.stderr.trim().split("\n")).toHaveLength(1);
    expect(again.stdout).not.toContain("Migrating the schema");
    expect((await rowsIn(target.schema)).crawl_findings).toBe(findings);

    const foreign = await freshSchema();
    await admin((client) => client.query(`create table ${foreign.schema}.notes (body text)`));
    const refused = await migrate(foreign.url);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      `pagegrade: migrate: the target schema ${foreign.schema} holds tables that are not pagegrade's (notes): ` +
        "migrate into an empty database or schema\n",
    );
    // Refused before anything was created there.
    expect(Object.keys(await rowsIn(foreign.schema))).toEqual(["notes"]);
  }, 180_000);

  it("refuses a source that is not a pagegrade database of this version", async () => {
    const target = await freshSchema();
    const versioned = join(dir, "versioned.db");
    copyFileSync(source, versioned);
    const database = new (sqliteDatabaseClass())(versioned);
    database.exec("delete from kysely_migration where name = '028_crawl_rows_unlocked'");
    const older = await pagegrade(["migrate", "--to", target.url, "--from", versioned]);
    expect(older.code).toBe(1);
    expect(older.stderr).toContain("is not at this version's schema (missing 028_crawl_rows_unlocked)");
    database.exec(
      "insert into kysely_migration (name, timestamp) values ('028_crawl_rows_unlocked', ''), ('099_later', '')",
    );
    const newer = await pagegrade(["migrate", "--to", target.url, "--from", versioned]);
    expect(newer.code).toBe(1);
    expect(newer.stderr).toContain("was migrated by a newer pagegrade (099_later)");
    database.close();
    const notDatabase = join(dir, "notes.txt");
    writeFileSync(
      notDatabase,
      "not a database, but long enough to have a header's worth of bytes in it ".repeat(4),
    );
    const text = await pagegrade(["migrate", "--to", target.url, "--from", notDatabase]);
    expect(text.code).toBe(1);
    expect(text.stderr).toBe(
      `pagegrade: migrate: cannot read the SQLite database ${notDatabase}: file is not a database\n`,
    );
    // Refused before the target was touched.
    expect(await rowsIn(target.schema)).toEqual({});
  }, 120_000);

  it("says clearly what is wrong with a wrong URL, without a stack trace", async () => {
    const unreachable = await migrate("postgres://postgres@127.0.0.1:1/test");
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toMatch(
      /^pagegrade: migrate: cannot connect to postgres:\/\/postgres@127\.0\.0\.1:1\/test: .*ECONNREFUSED/,
    );
    const missing = await migrate(postgresUrl.replace(/\/[^/?]*$/, "/no_such_database_here"));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('database "no_such_database_here" does not exist');
    const noSchema = await migrate(`${postgresUrl}?options=-c%20search_path%3Dno_such_schema_here%2Cpublic`);
    expect(noSchema.code).toBe(1);
    expect(noSchema.stderr).toBe(
      "pagegrade: migrate: the schema no_such_schema_here does not exist in the target database: create it first " +
        "(create schema no_such_schema_here), or name an existing one\n",
    );
    const password = await migrate("postgres://someone:secret@127.0.0.1:1/test");
    expect(password.stderr).toContain("postgres://someone:***@127.0.0.1:1/test");
    expect(password.stderr).not.toContain("secret");
    const notPostgres = await migrate("mysql://root@127.0.0.1/test");
    expect(notPostgres.code).toBe(2);
    expect(notPostgres.stderr).toContain(
      '--to must be a PostgreSQL URL (postgres://…), got "mysql://root@127.0.0.1/test"',
    );
    const noTarget = await pagegrade(["migrate"], { DATABASE_URL: `sqlite:${source}` });
    expect(noTarget.code).toBe(2);
    expect(noTarget.stderr).toContain("migrate needs --to");
    const noSource = await pagegrade(["migrate", "--to", postgresUrl, "--from", join(dir, "none.db")]);
    expect(noSource.code).toBe(1);
    expect(noSource.stderr).toContain(`cannot open the SQLite database ${join(dir, "none.db")}`);
    for (const result of [unreachable, missing, noSchema, password, notPostgres, noTarget, noSource])
      expect(result.stderr).not.toMatch(/^\s+at /m);
  }, 120_000);
});
