/**
 * PostgreSQL's repeated statements run prepared (src/store/prepared-statements.ts): a statement run a few times
 * on one connection is prepared there once, one-off and many-parameter statements never are, the number named
 * is bounded, and a prepared statement whose table another connection altered fails once, then runs again.
 */
import { sql } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StatementNames } from "../../src/store/prepared-statements.js";
import { freshDatabase, postgresUrl, type TestDatabase } from "../helpers/api.js";

describe("statement names", () => {
  it("names a text from its third run, never one without parameters or with more than 128", () => {
    const names = new StatementNames();
    expect(names.nameFor("select $1", 1)).toBeUndefined();
    expect(names.nameFor("select $1", 1)).toBeUndefined();
    const name = names.nameFor("select $1", 1);
    expect(name).toMatch(/^pagegrade_\d+$/);
    expect(names.nameFor("select $1", 1)).toBe(name);
    for (let run = 0; run < 5; run++) {
      expect(names.nameFor("begin", 0)).toBeUndefined();
      expect(names.nameFor("insert many", 129)).toBeUndefined();
    }
  });

  it("names at most 200 texts, and names a forgotten text afresh", () => {
    const names = new StatementNames();
    const run = (text: string) => [1, 2, 3].map(() => names.nameFor(text, 1)).at(-1);
    for (let index = 0; index < 250; index++) run(`select ${index} + $1`);
    expect(names.size).toBe(200);
    expect(run("select 'late' || $1")).toBeUndefined();
    const first = run("select 0 + $1");
    names.forget("select 0 + $1");
    const again = run("select 0 + $1");
    expect(again).toMatch(/^pagegrade_\d+$/);
    expect(again).not.toBe(first);
  });
});

describe("prepared statements on PostgreSQL", () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await freshDatabase("postgres");
    await sql`create table prepared_probe (id integer primary key, label text)`.execute(database.store.db);
    await sql`insert into prepared_probe values (1, 'one'), (2, 'two')`.execute(database.store.db);
  });
  afterAll(async () => {
    await database.drop();
  });

  it("prepares a statement run repeatedly on a connection, once, and returns what it would unprepared", async () => {
    await database.store.db.connection().execute(async (db) => {
      const read = (id: number) =>
        db
          .selectFrom("prepared_probe" as never)
          .select(sql<string>`label`.as("label"))
          .where(sql`id`, "=", id);
      const labels = [];
      for (const id of [1, 2, 1, 2, 1]) labels.push((await read(id).executeTakeFirstOrThrow()).label);
      expect(labels).toEqual(["one", "two", "one", "two", "one"]);
      const prepared = await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(
        db,
      );
      expect(prepared.rows.filter((row) => row.statement.includes("prepared_probe"))).toHaveLength(1);
    });
  });

  it("runs a prepared statement again after another connection altered its table", async () => {
    await database.store.db.connection().execute(async (db) => {
      const readAll = () =>
        db
          .selectFrom("prepared_probe" as never)
          .selectAll()
          .where(sql`id`, "=", 1)
          .execute();
      for (let run = 0; run < 3; run++) await readAll();
      const other = new pg.Client({
        connectionString: postgresUrl,
        options: `-c search_path=${database.schema}`,
      });
      await other.connect();
      await other.query("alter table prepared_probe add column extra integer default 7");
      await other.end();
      // PostgreSQL refuses the prepared `select *` once its result has another shape; the text is then named afresh.
      await expect(readAll()).rejects.toMatchObject({ code: "0A000" });
      const rows = [];
      for (let run = 0; run < 3; run++) rows.push(await readAll());
      expect(rows.at(-1)).toEqual([{ id: 1, label: "one", extra: 7 }]);
    });
  });
});
