/**
 * Migrating one PostgreSQL schema while other clients create and drop theirs (as the test suites do, several at
 * once): Kysely's look for its own tables scans every schema, and a schema dropped during that scan must not fail
 * the migration of another.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { openStore } from "../../src/store/database.js";
import { postgresUrl } from "../helpers/api.js";

const churnClient = new pg.Client({ connectionString: postgresUrl });
const migrated: string[] = [];

afterAll(async () => {
  for (const schema of migrated) await churnClient.query(`drop schema if exists ${schema} cascade`);
  await churnClient.end();
});

/** Creates and drops schemas holding a few tables each, back to back, until told to stop. */
async function churnSchemas(stop: { now: boolean }): Promise<number> {
  let dropped = 0;
  while (!stop.now) {
    const schema = `churn_${randomBytes(6).toString("hex")}`;
    await churnClient.query(
      `create schema ${schema}; create table ${schema}.a (id int); create table ${schema}.b (id int); create table ${schema}.c (id int)`,
    );
    await churnClient.query(`drop schema ${schema} cascade`);
    dropped++;
  }
  return dropped;
}

describe("migrating beside schemas that come and go", () => {
  it("migrates every fresh schema while others are dropped during its catalogue scans", async () => {
    await churnClient.connect();
    const stop = { now: false };
    const churn = churnSchemas(stop);
    try {
      for (let round = 0; round < 6; round++) {
        const schema = `migrate_race_${randomBytes(6).toString("hex")}`;
        migrated.push(schema);
        const store = await openStore(postgresUrl, { schema });
        await store.close();
      }
    } finally {
      stop.now = true;
    }
    expect(await churn).toBeGreaterThan(0);
  });
});
