/**
 * Crawls under faults, with real service and worker processes and real signals. On BullMQ and PostgreSQL a
 * crawl's parts spread over two `pagegrade worker` processes (each sends its own User-Agent, so the site sees
 * both), one worker is SIGKILLed mid-crawl and another takes its parts over; on the embedded queue the service
 * itself is SIGKILLed mid-crawl and restarted. Either way the crawl completes with every page analysed exactly
 * once, though each part hands its slot back every three pages (PAGEGRADE_CRAWL_SLICE_PAGES). A crawl a worker completes has its change summary (the project dashboard's) written by that worker.
 * npm run test:crawl.
 */
import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { AccountService } from "../../src/accounts/account-service.js";
import { freshDatabase, type TestDatabase } from "../helpers/api.js";
import { startChangingSite } from "../helpers/changing-site.js";
import { distributedSetup } from "../helpers/distributed-setup.js";
import { eventually } from "../helpers/job-queues.js";
import { startServer } from "../helpers/local-server.js";
import { type ServiceProcess, startServiceProcess, startWorkerProcess } from "../helpers/service-process.js";

const pages = 40;

const common = {
  PAGEGRADE_ALLOW_PRIVATE_NETWORKS: "1",
  PAGEGRADE_RATE_LIMIT: "0",
  PAGEGRADE_ANALYSIS_RATE_LIMIT: "0",
  PAGEGRADE_CRAWL_START_RATE_LIMIT: "0",
  PAGEGRADE_JOB_LEASE_SECONDS: "2",
  PAGEGRADE_JOB_GRACE_SECONDS: "1",
  PAGEGRADE_CRAWL_DELAY_MS: "0",
  PAGEGRADE_CRAWL_HOST_CONCURRENCY: "4",
  // Turns of three pages: every part goes back to the queue again and again, so a kill lands between turns
  // as well as within one, and the crawl must still add up (each page once).
  PAGEGRADE_CRAWL_SLICE_PAGES: "3",
};

/** Pages /p/0 … /p/39, each answering after 150 ms and linking to the next three; page requests by User-Agent. */
async function slowSite() {
  const agents: string[] = [];
  const site = await startServer(
    {},
    {
      fallback: (request: IncomingMessage, response) => {
        const match = /^\/p\/(\d+)$/.exec(request.url ?? "");
        if (!match) return response.writeHead(404).end();
        agents.push(String(request.headers["user-agent"]));
        const n = Number(match[1]);
        const next = [n + 1, n + 2, n + 3]
          .filter((k) => k < pages)
          .map((k) => `<a href="/p/${k}">Page ${k}</a>`);
        setTimeout(() => {
          response
            .writeHead(200, { "content-type": "text/html; charset=utf-8" })
            .end(
              `<!doctype html><html lang="en"><title>Page ${n} of the guide</title><h1>Page ${n}</h1>${next.join(" ")}</html>`,
            );
        }, 150);
      },
    },
  );
  return { site, agents };
}

describe("crawls under faults", () => {
  const children: ChildProcess[] = [];
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const child of children.splice(0))
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
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

  async function startCrawl(
    base: string,
    database: TestDatabase,
    url: string,
    user?: string,
  ): Promise<{ key: string; id: number }> {
    const key =
      user ??
      (
        await new AccountService(database.store).createUser(
          `${randomBytes(4).toString("hex")}@example.com`,
          null,
        )
      ).key;
    const response = await fetch(`${base}/api/v1/crawls`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ url, sitemaps: 0, max_depth: 50 }),
    });
    expect(response.status).toBe(202);
    return { key, id: ((await response.json()) as { data: { id: number } }).data.id };
  }

  /** The crawl complete with every page analysed, each page's report holding exactly one analysis. */
  async function expectCompleteOnce(database: TestDatabase, crawlId: number) {
    const { db } = database.store;
    await eventually(
      async () =>
        (await db.selectFrom("crawls").select("status").where("id", "=", crawlId).executeTakeFirst())
          ?.status === "complete",
      "the crawl to complete",
      80_000,
    );
    const crawl = await db
      .selectFrom("crawls")
      .selectAll()
      .where("id", "=", crawlId)
      .executeTakeFirstOrThrow();
    expect({ analysed: crawl.analysed, failed: crawl.failed }).toEqual({ analysed: pages, failed: 0 });
    const reports = await db.selectFrom("reports").select(["url", "analyses"]).execute();
    expect(reports).toHaveLength(pages);
    expect(reports.every((report) => report.analyses === 1)).toBe(true);
    expect(await db.selectFrom("analyses").select("id").execute()).toHaveLength(pages);
  }

  it("BullMQ on PostgreSQL: the parts spread over two workers; one SIGKILLed mid-crawl, the crawl completes, each page once", {
    timeout: 120_000,
  }, async () => {
    const { site, agents } = await slowSite();
    const { database, shared, drop } = await distributedSetup();
    cleanups.push(async () => site.close(), drop);
    const api = await service({ ...shared, PAGEGRADE_WORKERS: "0" });
    const doomed = worker({ ...shared, PAGEGRADE_USER_AGENT: "worker-a" });
    worker({ ...shared, PAGEGRADE_USER_AGENT: "worker-b" });
    await new Promise((resolve) => setTimeout(resolve, 1_500)); // both listening before the parts arrive
    const { id } = await startCrawl(api.url, database, `${site.url}/p/0`);
    await eventually(
      async () => new Set(agents).size === 2 && agents.length >= 8,
      "both workers to fetch pages",
      30_000,
    );
    doomed.kill("SIGKILL");
    worker({ ...shared, PAGEGRADE_USER_AGENT: "worker-c" });
    await expectCompleteOnce(database, id);
    // Only the workers fetched pages (the API process runs no jobs).
    expect(agents.every((agent) => ["worker-a", "worker-b", "worker-c"].includes(agent))).toBe(true);
  });

  it("embedded queue on SQLite: a crawl waiting out its Crawl-delay as delayed jobs survives a SIGKILL, each page once, the delay kept", {
    timeout: 400_000,
  }, async () => {
    const fetchedAt: number[] = [];
    const site = await startServer(
      {
        "/robots.txt": (_request, response) => {
          response.writeHead(200, { "content-type": "text/plain" }).end("User-agent: *\nCrawl-delay: 2\n");
        },
      },
      {
        fallback: (request: IncomingMessage, response) => {
          const match = /^\/p\/(\d+)$/.exec(request.url ?? "");
          if (!match) return response.writeHead(404).end();
          fetchedAt.push(Date.now());
          const n = Number(match[1]);
          const next = n + 1 < 6 ? `<a href="/p/${n + 1}">Page ${n + 1}</a>` : "";
          response
            .writeHead(200, { "content-type": "text/html; charset=utf-8" })
            .end(
              `<!doctype html><html lang="en"><title>Page ${n} of the slow site</title><h1>${n}</h1>${next}</html>`,
            );
        },
      },
    );
    const database = await freshDatabase("sqlite");
    cleanups.push(
      async () => site.close(),
      async () => database.drop(),
    );
    const first = await service({ DATABASE_URL: database.url, PAGEGRADE_CRAWL_HOST_CONCURRENCY: "2" });
    const { id } = await startCrawl(first.url, database, `${site.url}/p/0`);
    // Between two requests the crawl's parts wait as delayed jobs: the service dies during such a wait.
    await eventually(() => fetchedAt.length >= 2, "two pages fetched", 60_000);
    first.child.kill("SIGKILL");
    await first.exited;
    await service({ DATABASE_URL: database.url, PAGEGRADE_CRAWL_HOST_CONCURRENCY: "2" });
    const { db } = database.store;
    await eventually(
      async () =>
        (await db.selectFrom("crawls").select("status").where("id", "=", id).executeTakeFirst())?.status ===
        "complete",
      "the crawl to complete",
      240_000,
    );
    const crawl = await db.selectFrom("crawls").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    expect({ analysed: crawl.analysed, failed: crawl.failed }).toEqual({ analysed: 6, failed: 0 });
    // Each page fetched once, but the one whose fetch the kill interrupted (fetched again, analysed once).
    expect(fetchedAt.length).toBeGreaterThanOrEqual(6);
    expect(fetchedAt.length).toBeLessThanOrEqual(7);
    const reports = await db.selectFrom("reports").select("analyses").execute();
    expect(reports.map((report) => report.analyses)).toEqual([1, 1, 1, 1, 1, 1]);
    // Crawl-delay held across the waits and the restart (less a little for a request's time on its way).
    for (let n = 1; n < fetchedAt.length; n++) {
      expect((fetchedAt[n] ?? 0) - (fetchedAt[n - 1] ?? 0)).toBeGreaterThanOrEqual(1_900);
    }
  });

  it("embedded queue on SQLite: the service SIGKILLed mid-crawl; after a restart the crawl completes, each page once", {
    timeout: 120_000,
  }, async () => {
    const { site, agents } = await slowSite();
    const database = await freshDatabase("sqlite");
    cleanups.push(
      async () => site.close(),
      async () => database.drop(),
    );
    const first = await service({ DATABASE_URL: database.url });
    const { id } = await startCrawl(first.url, database, `${site.url}/p/0`);
    await eventually(async () => agents.length >= 10, "the crawl to be under way", 30_000);
    first.child.kill("SIGKILL");
    await first.exited;
    await service({ DATABASE_URL: database.url });
    await expectCompleteOnce(database, id);
  });

  it("BullMQ on PostgreSQL: a crawl a worker completes stores what changed against the previous crawl", {
    timeout: 120_000,
  }, async () => {
    const site = await startChangingSite();
    const { database, shared, drop } = await distributedSetup();
    cleanups.push(async () => site.close(), drop);
    const api = await service({ ...shared, PAGEGRADE_WORKERS: "0" });
    worker(shared);
    await new Promise((resolve) => setTimeout(resolve, 1_500)); // listening before the parts arrive
    const { db } = database.store;
    const crawled = async (key?: string) => {
      const started = await startCrawl(api.url, database, site.url("/"), key);
      await eventually(
        async () =>
          (await db.selectFrom("crawls").select("status").where("id", "=", started.id).executeTakeFirst())
            ?.status === "complete",
        "the crawl to complete",
        60_000,
      );
      return started;
    };
    const first = await crawled();
    site.version = 2;
    const second = await crawled(first.key);
    // The worker that completed the crawl wrote the summary (the API process runs no jobs).
    await eventually(
      async () =>
        (await db.selectFrom("crawl_change_summaries").select("to_crawl_id").execute()).length === 1,
      "the summary",
      20_000,
    );
    expect(
      await db
        .selectFrom("crawl_change_summaries")
        .select([
          "to_crawl_id",
          "from_crawl_id",
          "new_findings",
          "resolved_findings",
          "pages_regressed",
          "pages_fixed",
        ])
        .execute(),
    ).toEqual([
      {
        to_crawl_id: second.id,
        from_crawl_id: first.id,
        new_findings: 1,
        resolved_findings: 2,
        pages_regressed: 1,
        pages_fixed: 1,
      },
    ]);
  });
});
