/**
 * Moving a service from SQLite to PostgreSQL, end to end with real processes: a SQLite service filled through the
 * API (users with two keys, reports with history, a schedule and a password, a crawl of a local site, a webhook
 * with deliveries) is backed up with `pagegrade backup` while a crawl writes its pages and a writer keeps storing
 * reports, the copy is checked (it opens, passes `PRAGMA integrity_check`, holds every report acknowledged and every
 * page crawled before the backup began), then
 * moved with `pagegrade migrate` into a fresh PostgreSQL schema, and a service started there answers every call as
 * the SQLite one did, to the same keys; new rows get new ids.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { sqliteDatabaseClass } from "../../src/store/sqlite-driver.js";
import { postgresUrl, testServiceSettings } from "../helpers/api.js";
import { crawlTestSettings, testPage } from "../helpers/crawl-api.js";
import { eventually } from "../helpers/job-queues.js";
import { type Handler, html, startServer } from "../helpers/local-server.js";
import { multipartBody, pngImage } from "../helpers/multipart.js";
import { pagegrade } from "../helpers/pagegrade-command.js";
import { type ServiceProcess, startServiceProcess } from "../helpers/service-process.js";

const dir = mkdtempSync(join(tmpdir(), "pagegrade-move-"));
const live = join(dir, "live.db");
const backup = join(dir, "backup.db");
const schema = `move_${randomBytes(5).toString("hex")}`;
const targetUrl = `${postgresUrl}?options=-c%20search_path%3D${schema}%2Cpublic`;
const settings = {
  ...testServiceSettings,
  ...crawlTestSettings,
  PAGEGRADE_ALLOW_PRIVATE_NETWORKS: "1",
  PAGEGRADE_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
};
const running: ServiceProcess[] = [];

async function api(service: ServiceProcess, key: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${service.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      accept: "application/json",
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, text, json: () => JSON.parse(text) };
}

async function ok(service: ServiceProcess, key: string, method: string, path: string, body?: unknown) {
  const response = await api(service, key, method, path, body);
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${response.text}`);
  return response.json();
}

/** Every call's body as the service answers it, its own address written as SERVICE (the lists' links name it). */
async function snapshot(
  service: ServiceProcess,
  key: string,
  paths: string[],
): Promise<Record<string, unknown>> {
  const bodies: Record<string, unknown> = {};
  for (const path of paths) {
    const response = await api(service, key, "GET", path);
    expect(response.status, path).toBe(200);
    bodies[path] = JSON.parse(response.text.replaceAll(service.url, "SERVICE"));
  }
  return bodies;
}

afterAll(async () => {
  for (const service of running) {
    service.child.kill("SIGKILL");
    await service.exited;
  }
  rmSync(dir, { recursive: true, force: true });
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  await client.query(`drop schema if exists ${schema} cascade`);
  await client.end();
});

describe("moving a SQLite service to PostgreSQL", () => {
  it("backs up while writing, migrates, and the PostgreSQL service answers as the SQLite one did", async () => {
    // A generated site of `generatedPages` pages, /p/0 to /p/…, a tree ten links wide: the writer's crawl.
    const generatedPages = 3000;
    const generated: Handler = (request, response) => {
      const n = Number(new URL(request.url ?? "/", "http://x").pathname.slice("/p/".length));
      const links = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
        .map((step) => n * 10 + step)
        .filter((next) => next < generatedPages)
        .map((next) => `<a href="/p/${next}">Page ${next}</a>`);
      html(testPage(`Page ${n}`, links.join(" ")))(request, response);
    };
    const site = await startServer(
      {
        "/": html(testPage("Home", '<a href="/a">A</a> <a href="/b">B</a> <a href="/gone">Gone</a>')),
        "/a": html(testPage("Page A", '<a href="/">Home</a> <a href="/b">B</a>')),
        "/b": html(testPage("Page B", '<a href="/">Home</a>')),
        "/hook": (_request, response) => {
          response.writeHead(204);
          response.end();
        },
      },
      { fallback: generated },
    );
    const sqliteEnv = { ...settings, DATABASE_URL: `sqlite:${live}` };
    // The SQLite file exists (and holds the accounts) before the service starts on it, as `user create` makes it.
    const newUser = async (email: string, password?: string) => {
      const created = await pagegrade(
        ["user", "create", "--email", email, ...(password ? ["--password", password] : [])],
        sqliteEnv,
      );
      expect(created.code, created.stderr).toBe(0);
      return created.stdout.trim().split("\n").at(-1) as string;
    };
    const aliceFirstKey = await newUser("alice@example.com", "correct horse battery");
    const aliceKey = (
      await pagegrade(["key", "create", "--email", "alice@example.com", "--keep-old"], sqliteEnv)
    ).stdout
      .trim()
      .split("\n")
      .at(-1) as string;
    const bobKey = await newUser("bob@example.com");
    const writerKey = await newUser("writer@example.com");

    const sqliteService = await startServiceProcess(sqliteEnv);
    running.push(sqliteService);
    const webhook = (
      await ok(sqliteService, aliceKey, "POST", "/api/v1/webhooks", { url: `${site.url}/hook` })
    ).data;
    const home = (await ok(sqliteService, aliceKey, "POST", "/api/v1/reports", { url: `${site.url}/` })).data;
    await ok(sqliteService, aliceKey, "PATCH", `/api/v1/reports/${home.id}`, { results: 1 });
    const scheduled = (
      await ok(sqliteService, aliceKey, "POST", "/api/v1/reports", {
        url: `${site.url}/a`,
        schedule: "daily",
      })
    ).data;
    expect(scheduled.next_run_at).toEqual(expect.any(String));
    const locked = (
      await ok(sqliteService, aliceKey, "POST", "/api/v1/reports", {
        url: `${site.url}/b`,
        privacy: 2,
        password: "open sesame",
      })
    ).data;
    const bobs = (await ok(sqliteService, bobKey, "POST", "/api/v1/reports", { url: `${site.url}/b` })).data;
    const crawl = (
      await ok(sqliteService, aliceKey, "POST", "/api/v1/crawls", { url: `${site.url}/`, max_pages: 10 })
    ).data;
    await eventually(
      async () =>
        (await ok(sqliteService, aliceKey, "GET", `/api/v1/crawls/${crawl.id}`)).data.status === "complete",
      "the crawl",
      60_000,
    );
    await eventually(
      async () => {
        const deliveries = (
          await ok(sqliteService, aliceKey, "GET", `/api/v1/webhooks/${webhook.id}/deliveries`)
        ).data as { status: string }[];
        return deliveries.length >= 3 && deliveries.every((delivery) => delivery.status === "succeeded");
      },
      "the webhook deliveries",
      30_000,
    );

    // The crawl's project mails its crawls to Alice (stored, though mail is not set up here).
    const notificationsPath = `/api/v1/projects/${encodeURIComponent(crawl.project)}/notifications`;
    await ok(sqliteService, aliceKey, "PUT", notificationsPath, {
      email_on: "completed",
      recipients: ["alice@example.com"],
    });

    // A team of Alice's with Bob as its editor and an invitation still open.
    const team = (await ok(sqliteService, aliceKey, "POST", "/api/v1/teams", { name: "Agency" })).data;
    const invitation = (
      await ok(sqliteService, aliceKey, "POST", `/api/v1/teams/${team.id}/invitations`, {
        email: "bob@example.com",
        role: "editor",
      })
    ).data;
    const token = new URL(invitation.accept_url).searchParams.get("token");
    await ok(sqliteService, bobKey, "POST", "/api/v1/invitations/accept", { token });
    await ok(sqliteService, aliceKey, "POST", `/api/v1/teams/${team.id}/invitations`, {
      email: "later@example.com",
      role: "viewer",
    });
    const teamPaths = ["", "/members", "/invitations", "/activity"].map(
      (tail) => `/api/v1/teams/${team.id}${tail}`,
    );

    // A shared audit (its password hash) and a brand with its logo (a blob, bytea on PostgreSQL) move too.
    await ok(sqliteService, aliceKey, "PATCH", `/api/v1/crawls/${crawl.id}`, {
      privacy: 2,
      password: "audit",
    });
    const brand = multipartBody(
      { brand_name: "Alice's agency" },
      { brand_logo: { name: "logo.png", type: "image/png", content: pngImage(5000) } },
    );
    const branded = await fetch(`${sqliteService.url}/api/v1/branding`, {
      method: "PUT",
      headers: { authorization: `Bearer ${aliceKey}`, "content-type": brand.contentType },
      body: brand.payload,
    });
    expect(branded.status).toBe(200);
    const analyses = (await ok(sqliteService, aliceKey, "GET", `/api/v1/reports/${home.id}/analyses`))
      .data as { id: number }[];
    expect(analyses.length).toBeGreaterThanOrEqual(2);
    const crawlPaths = ["", "/pages", "/issues", "/checks", "/links"].map(
      (tail) => `/api/v1/crawls/${crawl.id}${tail}`,
    );
    const alicePaths = [
      "/api/v1/account",
      "/api/v1/branding",
      "/api/v1/reports?per_page=100",
      "/api/v1/projects",
      "/api/v1/crawls",
      ...[home, scheduled, locked].map((report) => `/api/v1/reports/${report.id}`),
      `/api/v1/reports/${home.id}/analyses`,
      ...analyses.map((analysis) => `/api/v1/reports/${home.id}/analyses/${analysis.id}`),
      `/api/v1/reports/${home.id}/diff`,
      ...crawlPaths,
      "/api/v1/webhooks",
      `/api/v1/webhooks/${webhook.id}`,
      `/api/v1/webhooks/${webhook.id}/deliveries`,
      notificationsPath,
      "/api/v1/teams",
      ...teamPaths,
    ];
    const bobPaths = ["/api/v1/account", "/api/v1/reports", `/api/v1/reports/${bobs.id}`, "/api/v1/teams"];
    const aliceBefore = await snapshot(sqliteService, aliceKey, alicePaths);
    const bobBefore = await snapshot(sqliteService, bobKey, bobPaths);
    expect((aliceBefore[crawlPaths[1] as string] as { data: unknown[] }).data.length).toBeGreaterThanOrEqual(
      3,
    );

    // While the backup runs, a crawl writes its pages and a writer keeps storing reports (a transaction each).
    const writerCrawl = (
      await ok(sqliteService, writerKey, "POST", "/api/v1/crawls", {
        url: `${site.url}/p/0`,
        max_pages: generatedPages,
      })
    ).data;
    const acknowledged: number[] = [];
    let writing = true;
    const writer = (async () => {
      for (let n = 0; writing; n++) {
        const stored = await api(sqliteService, writerKey, "POST", "/api/v1/reports", {
          url: `${site.url}/a?n=${n}`,
        });
        if (stored.status === 201) acknowledged.push(stored.json().data.id);
      }
    })();
    // Awaited below; handled here too, so a test failing before then does not also leave an unhandled rejection.
    writer.catch(() => {});
    await eventually(() => acknowledged.length >= 5, "the writer's first reports", 30_000);
    await eventually(
      async () =>
        (await ok(sqliteService, writerKey, "GET", `/api/v1/crawls/${writerCrawl.id}`)).data.pages.analysed >=
        20,
      "the crawl's first pages",
      60_000,
    );
    const before = [...acknowledged];
    // The crawl's pages done, read from the live database (the crawl's counters are refreshed at an interval).
    const Database = sqliteDatabaseClass();
    const doneIn = (database: InstanceType<typeof Database>) =>
      (
        database
          .prepare("select count(*) as n from crawl_pages where crawl_id = ? and state = 'done'")
          .get(writerCrawl.id) as { n: number }
      ).n;
    const pagesDone = () => {
      const reader = new Database(live, { readonly: true, fileMustExist: true });
      try {
        return doneIn(reader);
      } finally {
        reader.close();
      }
    };
    const crawledBefore = pagesDone();
    expect(crawledBefore).toBeGreaterThan(0);
    const backedUp = await pagegrade(["backup", backup], sqliteEnv);
    const during = acknowledged.length - before.length;
    writing = false;
    await writer;
    expect(backedUp.code, backedUp.stderr).toBe(0);
    expect(backedUp.stdout).toContain("integrity check ok");
    expect(during, "reports stored while the backup ran").toBeGreaterThan(0);
    expect(pagesDone(), "pages crawled while the backup ran").toBeGreaterThan(crawledBefore);
    // Nothing but the finished copy beside it: the temporary file was renamed.
    expect(
      readdirSync(dir).filter((name) => name.startsWith("backup") || name.startsWith(".backup")),
    ).toEqual(["backup.db"]);

    const copy = new Database(backup, { readonly: true, fileMustExist: true });
    let versions: unknown[] = [];
    let teamVersions: unknown[] = [];
    try {
      expect(copy.pragma("integrity_check")).toEqual([{ integrity_check: "ok" }]);
      const held = new Set(
        (copy.prepare("select id from reports").all() as { id: number }[]).map((row) => row.id),
      );
      expect(before.filter((id) => !held.has(id))).toEqual([]);
      expect(doneIn(copy)).toBeGreaterThanOrEqual(crawledBefore);
      versions = copy.prepare("select id, reports_version from users order by id").all();
      teamVersions = copy.prepare("select id, reports_version from teams order by id").all();
    } finally {
      copy.close();
    }
    sqliteService.child.kill("SIGTERM");
    await sqliteService.exited;

    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
    const moved = await pagegrade(["migrate", "--to", targetUrl], { DATABASE_URL: `sqlite:${backup}` });
    expect(moved.code, moved.stderr).toBe(0);
    expect(moved.stdout).toMatch(/reports: [\d,]+ rows copied, count verified/);
    expect(moved.stdout).toContain("Done: ");

    // The copy ran with the tables' triggers off: the reports' versions are the source's, not bumped by the inserts.
    const target = new pg.Client({ connectionString: targetUrl });
    await target.connect();
    const copied = await target.query("select id, reports_version::int from users order by id");
    const changes = await target.query("select count(*)::int as n from report_changes");
    const copiedTeams = await target.query("select id, reports_version::int from teams order by id");
    const teamChanges = await target.query("select count(*)::int as n from team_report_changes");
    await target.end();
    expect(copied.rows).toEqual(versions);
    expect(versions).toHaveLength(3);
    expect(changes.rows).toEqual([{ n: 0 }]);
    // The teams' versions (migration 038) likewise, their PostgreSQL-only log left empty.
    expect(copiedTeams.rows).toEqual(teamVersions);
    expect(teamVersions).not.toHaveLength(0);
    expect(teamChanges.rows).toEqual([{ n: 0 }]);

    const postgresService = await startServiceProcess({ ...settings, DATABASE_URL: targetUrl });
    running.push(postgresService);
    // The writer's crawl was running in the copy; it would go on here (its job is in the copied queue).
    const cancelled = await api(
      postgresService,
      writerKey,
      "POST",
      `/api/v1/crawls/${writerCrawl.id}/cancel`,
    );
    expect([200, 202, 409]).toContain(cancelled.status);
    expect(await snapshot(postgresService, aliceKey, alicePaths)).toEqual(aliceBefore);
    expect(await snapshot(postgresService, bobKey, bobPaths)).toEqual(bobBefore);
    // Alice's first key was kept (--keep-old); the writer's reports acknowledged before the backup are there.
    expect((await api(postgresService, aliceFirstKey, "GET", "/api/v1/account")).status).toBe(200);
    for (const id of before)
      expect((await api(postgresService, writerKey, "GET", `/api/v1/reports/${id}`)).status).toBe(200);
    // The webhook's sealed secret opens with the same key: a ping is signed and delivered.
    const ping = await api(postgresService, aliceKey, "POST", `/api/v1/webhooks/${webhook.id}/ping`);
    expect(ping.status, ping.text).toBeLessThan(300);
    // New rows continue past the copied ids (the sequences were set), and a change shows at once.
    const largest = Math.max(...before, bobs.id, locked.id);
    const fresh = (await ok(postgresService, bobKey, "POST", "/api/v1/reports", { url: `${site.url}/` }))
      .data;
    expect(fresh.id).toBeGreaterThan(largest);
    expect((await ok(postgresService, bobKey, "GET", "/api/v1/reports")).meta.total).toBe(2);
    const newTeam = (await ok(postgresService, bobKey, "POST", "/api/v1/teams", { name: "Bob's" })).data;
    expect(newTeam.id).toBeGreaterThan(team.id);
    const carol = await pagegrade(["user", "create", "--email", "carol@example.com"], {
      DATABASE_URL: targetUrl,
    });
    expect(carol.stdout).toMatch(/\(id 4\)/);
    await site.close();
  }, 240_000);
});
