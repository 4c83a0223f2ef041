/**
 * Asynchronous analyses under faults, with real service and worker processes and real signals: the process
 * running analyses is SIGKILLed mid-analysis — the embedded queue's service on SQLite, a `pagegrade worker` on
 * BullMQ and PostgreSQL — and every report still ends complete with exactly one analysis; two API processes and
 * two workers on PostgreSQL and Redis take a few hundred asynchronous analyses and lose none. npm run test:jobs.
 */
import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { AccountService } from "../../src/accounts/account-service.js";
import { freshDatabase, type TestDatabase } from "../helpers/api.js";
import { distributedSetup } from "../helpers/distributed-setup.js";
import { eventually } from "../helpers/job-queues.js";
import { html, startServer } from "../helpers/local-server.js";
import { type ServiceProcess, startServiceProcess, startWorkerProcess } from "../helpers/service-process.js";

const page = `<!doctype html><html lang="en"><head><title>Bicycle repair at home, step by step</title></head><body><h1>Repair</h1><p>Wheels and chains.</p></body></html>`;

/** Settings every process of a test shares: local pages allowed, no request limits, short leases. */
const common = {
  PAGEGRADE_ALLOW_PRIVATE_NETWORKS: "1",
  PAGEGRADE_RATE_LIMIT: "0",
  PAGEGRADE_ANALYSIS_RATE_LIMIT: "0",
  PAGEGRADE_JOB_LEASE_SECONDS: "2",
  PAGEGRADE_JOB_GRACE_SECONDS: "1",
  PAGEGRADE_PROBE_CACHE_SECONDS: "0",
};

/** A site whose pages answer after `delayMs`, counting the page requests it has received. */
async function countingSite(delayMs: number) {
  let pageRequests = 0;
  const serve = html(page);
  const site = await startServer({
    "/": (request, response) => {
      pageRequests++;
      setTimeout(() => serve(request, response), delayMs);
    },
  });
  return { site, pageRequests: () => pageRequests };
}

describe("asynchronous analyses under faults", () => {
  const children: ChildProcess[] = [];
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const child of children.splice(0)) {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    }
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
  });

  async function service(env: Record<string, string>): Promise<ServiceProcess> {
    const started = await startServiceProcess({ ...common, ...env });
    children.push(started.child);
    return started;
  }

  function worker(env: Record<string, string>): ChildProcess {
    const child = startWorkerProcess({ ...common, ...env });
    children.push(child);
    return child;
  }

  async function userKey(database: TestDatabase): Promise<string> {
    return (
      await new AccountService(database.store).createUser(
        `${randomBytes(4).toString("hex")}@example.com`,
        null,
      )
    ).key;
  }

  async function storeAsync(base: string, key: string, url: string): Promise<number> {
    const response = await fetch(`${base}/api/v1/reports`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${key}`,
        prefer: "respond-async",
        "content-type": "application/json",
      },
      body: JSON.stringify({ url }),
    });
    expect(response.status).toBe(202);
    return ((await response.json()) as { data: { id: number } }).data.id;
  }

  /** Every report complete, each with exactly one analysis stored. */
  async function expectEachAnalysedOnce(database: TestDatabase, ids: number[], timeoutMs: number) {
    const { db } = database.store;
    await eventually(
      async () => {
        const done = await db
          .selectFrom("reports")
          .select("id")
          .where("id", "in", ids)
          .where("status", "=", "complete")
          .execute();
        return done.length === ids.length;
      },
      `all ${ids.length} reports to complete`,
      timeoutMs,
    );
    const counted = await db
      .selectFrom("analyses")
      .select(["report_id", (eb) => eb.fn.countAll<number>().as("n")])
      .where("report_id", "in", ids)
      .groupBy("report_id")
      .execute();
    expect(counted.map((row) => Number(row.n))).toEqual(ids.map(() => 1));
    const reports = await db
      .selectFrom("reports")
      .select(["analyses", "pending_analyses", "status"])
      .where("id", "in", ids)
      .execute();
    for (const report of reports)
      expect(report).toEqual({ analyses: 1, pending_analyses: 0, status: "complete" });
  }

  it("embedded queue on SQLite: the service SIGKILLed mid-analysis; after a restart every report is analysed once", {
    timeout: 90_000,
  }, async () => {
    const { site, pageRequests } = await countingSite(1_500);
    const database = await freshDatabase("sqlite");
    cleanups.push(
      async () => site.close(),
      async () => database.drop(),
    );
    const key = await userKey(database);
    const first = await service({ DATABASE_URL: database.url });
    const ids: number[] = [];
    for (let index = 0; index < 6; index++)
      ids.push(await storeAsync(first.url, key, `${site.url}/?page=${index}`));
    await eventually(async () => pageRequests() > 0, "an analysis to be under way", 20_000);
    first.child.kill("SIGKILL");
    await first.exited;
    const second = await service({ DATABASE_URL: database.url });
    await expectEachAnalysedOnce(database, ids, 60_000);
    second.child.kill("SIGTERM");
    expect(await second.exited).toBe(0);
  });

  it("BullMQ on PostgreSQL: a worker SIGKILLed mid-analysis; another finishes every report once", {
    timeout: 90_000,
  }, async () => {
    const { site, pageRequests } = await countingSite(1_500);
    const { database, shared, drop } = await distributedSetup();
    cleanups.push(async () => site.close(), drop);
    const key = await userKey(database);
    const api = await service({ ...shared, PAGEGRADE_WORKERS: "0" });
    const doomed = worker(shared);
    const ids: number[] = [];
    for (let index = 0; index < 6; index++)
      ids.push(await storeAsync(api.url, key, `${site.url}/?page=${index}`));
    await eventually(async () => pageRequests() > 0, "an analysis to be under way", 30_000);
    doomed.kill("SIGKILL");
    worker(shared);
    await expectEachAnalysedOnce(database, ids, 60_000);
  });

  it("two API processes and two workers on PostgreSQL and Redis: 200 asynchronous analyses, none lost or doubled", {
    timeout: 180_000,
  }, async () => {
    const { site } = await countingSite(0);
    const { database, shared, drop } = await distributedSetup();
    cleanups.push(async () => site.close(), drop);
    const key = await userKey(database);
    const apis = [
      await service({ ...shared, PAGEGRADE_WORKERS: "0" }),
      await service({ ...shared, PAGEGRADE_WORKERS: "0" }),
    ];
    worker(shared);
    worker(shared);
    const ids = await Promise.all(
      Array.from({ length: 200 }, (_, index) =>
        storeAsync((apis[index % 2] as ServiceProcess).url, key, `${site.url}/?page=${index}`),
      ),
    );
    expect(new Set(ids).size).toBe(200);
    await expectEachAnalysedOnce(database, ids, 150_000);
  });
});
