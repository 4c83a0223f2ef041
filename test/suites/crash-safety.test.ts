import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { AccountService } from "../../src/accounts/account-service.js";
import { catalogue } from "../../src/analysis/catalogue.js";
import { categoryNames } from "../../src/analysis/checks/check.js";
import { unpackResults } from "../../src/store/analysis-document.js";
import { openStore } from "../../src/store/database.js";
import { postgresUrl } from "../helpers/api.js";
import { html, startServer } from "../helpers/local-server.js";
import { startServiceProcess } from "../helpers/service-process.js";

/**
 * The service is killed with SIGKILL at random moments while many clients create reports. After every
 * restart the database opens cleanly, every report whose 201 a client received is there and complete, and
 * no half-written report exists.
 */
const rounds = 4;
const clients = 8;

async function crashRounds(databaseUrl: string, key: string, pageUrl: string) {
  const acknowledged: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const service = await startServiceProcess({
      DATABASE_URL: databaseUrl,
      PAGEGRADE_ALLOW_PRIVATE_NETWORKS: "1",
      PAGEGRADE_RATE_LIMIT: "0",
      PAGEGRADE_ANALYSIS_RATE_LIMIT: "0",
      PAGEGRADE_MAX_CONCURRENT_ANALYSES: "64",
    });
    let running = true;
    const worker = async () => {
      while (running) {
        try {
          const response = await fetch(`${service.url}/api/v1/reports`, {
            method: "POST",
            headers: { authorization: `Bearer ${key}`, "content-type": "application/x-www-form-urlencoded" },
            body: `url=${encodeURIComponent(pageUrl)}`,
          });
          if (response.status === 201)
            acknowledged.push(((await response.json()) as { data: { id: number } }).data.id);
        } catch {
          return; // the process died under us
        }
      }
    };
    const workers = Array.from({ length: clients }, worker);
    // The kill comes at a random moment once the round's service has answered a first report: on a machine
    // loaded by other suites a fresh process may take longer than the random delay to answer at all, and a
    // round that acknowledged nothing tests nothing.
    const before = acknowledged.length;
    const answering = Date.now() + 60_000;
    while (acknowledged.length === before && Date.now() < answering) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await new Promise((resolve) => setTimeout(resolve, 300 + Math.random() * 1500));
    service.child.kill("SIGKILL");
    running = false;
    await service.exited;
    await Promise.all(workers);
  }
  return acknowledged;
}

describe.each(["sqlite", "postgres"] as const)("crash safety on %s", (kind) => {
  const dir = mkdtempSync(join(tmpdir(), "pagegrade-crash-"));
  const schema = `crash_${randomBytes(5).toString("hex")}`;
  const databaseUrl =
    kind === "sqlite"
      ? `sqlite:${join(dir, "crash.db")}`
      : `${postgresUrl}?options=-c%20search_path%3D${schema}%2Cpublic`;

  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    if (kind === "postgres") {
      const client = new pg.Client({ connectionString: postgresUrl });
      await client.connect();
      await client.query(`drop schema if exists ${schema} cascade`);
      await client.end();
    }
  });

  it("keeps every acknowledged report, complete, across SIGKILLs", async () => {
    if (kind === "postgres") {
      const client = new pg.Client({ connectionString: postgresUrl });
      await client.connect();
      await client.query(`create schema ${schema}`);
      await client.end();
    }
    const site = await startServer({
      "/": html('<!doctype html><html lang="en"><title>Crash test page</title><h1>Crash</h1></html>'),
    });
    const setup = await openStore(databaseUrl);
    const { key } = await new AccountService(setup).createUser("crash@example.com", null);
    await setup.close();

    const acknowledged = await crashRounds(databaseUrl, key, `${site.url}/`);
    await site.close();

    const store = await openStore(databaseUrl);
    try {
      if (kind === "sqlite") {
        const check = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(store.db);
        expect(check.rows[0]?.integrity_check).toBe("ok");
      }
      const rows = (
        await store.db
          .selectFrom("reports")
          .leftJoin("analyses", "analyses.id", "reports.analysis_id")
          .select([
            "reports.id as id",
            "analyses.summary as summary",
            "analyses.categories as categories",
            "analyses.results as packed",
            "reports.url as url",
          ])
          .execute()
      ).map((row) => ({ ...row, results: row.packed && unpackResults(row.packed).toString() }));
      const ids = new Set(rows.map((row) => row.id));
      const missing = acknowledged.filter((id) => !ids.has(id));
      expect(missing).toEqual([]);
      for (const row of rows) {
        expect(Object.keys(JSON.parse(row.results ?? "{}"))).toHaveLength(catalogue.length);
        expect(JSON.parse(row.summary ?? "{}").checks).toBe(catalogue.length);
        expect(Object.keys(JSON.parse(row.categories ?? "{}")).sort()).toEqual(
          Object.keys(categoryNames).sort(),
        );
      }
      console.log(
        `crash-safety (${kind}): ${rounds} SIGKILL rounds, ${acknowledged.length} acknowledged reports, ${rows.length} stored, 0 missing, 0 incomplete`,
      );
      expect(acknowledged.length).toBeGreaterThan(rounds);
    } finally {
      await store.close();
    }
  });
});
