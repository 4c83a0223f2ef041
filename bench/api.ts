/**
 * `npm run bench:api`: the service under load from autocannon (a separate process on the same machine).
 * Seeds 100,000 reports over 100 users plus one user who owns 100,000 more, with realistic analysis results
 * (real reports of corpus pages), then measures requests per second and p99 at 50 connections for: list
 * per_page=10 and show (compressed, as clients ask, and uncompressed; with and without the response cache), list
 * per_page=100, list with search + result + sort_by=url (the large user) and a report's analyses; and the list and a
 * report of a team's workspace (`team={id}`, a team holding 1,000 reports, asked by a member), each also compared
 * with the same scenario in a user's own workspace, each as a share of its own bare run (target: at least 0.9x). Each scenario
 * runs right after its baseline: a bare node:http server returning from memory the very bytes the service sent
 * for it, its headers and body (the floor for Node). The service counts every request against the per-key rate limit (set far above
 * what the load reaches, so it counts but never refuses). Also the median latency of search + sort over the
 * large user's reports, one request at a time.
 * BENCH_DATABASES lists the databases to measure in this run, comma-separated, one after the other over the same
 * documents: `sqlite` (a fresh file, the default), `postgres` (a fresh schema in BENCH_POSTGRES_URL, default
 * postgres://postgres@127.0.0.1:5432/test, dropped afterwards), or a full `sqlite:…`/`postgres://…` URL.
 * `BENCH_DATABASES=sqlite,postgres` compares both under the same machine load. BENCH_SECONDS is the length of each
 * run.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { sql } from "kysely";
import { AccountService } from "../src/accounts/account-service.js";
import { Analyzer } from "../src/analysis/analyse.js";
import { buildApp } from "../src/app.js";
import { loadAnalysisConfig, loadServiceConfig } from "../src/config.js";
import { analysisColumns } from "../src/reports/analysis-columns.js";
import { packResults } from "../src/store/analysis-document.js";
import { openStore } from "../src/store/database.js";
import { ReportStore } from "../src/store/report-store.js";
import { timestamp } from "../src/timestamps.js";
import { loadCorpus, serveCorpus } from "../test/helpers/corpus.js";

const run = promisify(execFile);
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const tempDir = mkdtempSync(join(tmpdir(), "pagegrade-bench-"));
const postgresUrl = process.env.BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const databaseUrls = (process.env.BENCH_DATABASES ?? "sqlite").split(",").map((name) => {
  const trimmed = name.trim();
  if (trimmed === "sqlite") return `sqlite:${join(tempDir, "bench.db")}`;
  if (trimmed === "postgres") return postgresUrl;
  if (trimmed.startsWith("sqlite:") || trimmed.startsWith("postgres")) return trimmed;
  throw new Error(`BENCH_DATABASES: "${trimmed}" is not sqlite, postgres or a database URL`);
});

// Realistic analysis documents: real reports of corpus pages.
const analyzer = new Analyzer(loadAnalysisConfig({ PAGEGRADE_ALLOW_PRIVATE_NETWORKS: "1" }));
const corpus = loadCorpus().slice(0, 40);
const corpusServer = await serveCorpus(corpus);
const documents: Array<Awaited<ReturnType<Analyzer["analyse"]>>["report"]> = [];
for (const page of corpus)
  documents.push((await analyzer.analyse(`${corpusServer.url}/${page.name}`)).report);
await corpusServer.close();

async function measure(databaseUrl: string): Promise<string[]> {
  const schema = databaseUrl.startsWith("postgres") ? `bench_${process.pid}` : undefined;
  const store = await openStore(databaseUrl, schema ? { schema } : {});
  const accounts = new AccountService(store);
  const keys: string[] = [];
  const userIds: number[] = [];
  for (let user = 0; user <= 100; user++) {
    const { account, key } = await accounts.createUser(`bench${user}@example.com`, null);
    keys.push(key);
    userIds.push(account.id);
  }
  const largeUser = userIds[100] as number;
  const largeKey = keys[100] as string;

  const words = ["pricing", "blog", "docs", "about", "shop", "careers", "news", "help", "product", "contact"];
  const hosts = Array.from({ length: 40 }, (_, index) => `site${index}.example.com`);
  let seeded = 0;
  const seedStarted = performance.now();
  /** The document each seeded report shows, by report id (to pick reports of the same size). */
  const documentOfReport = new Map<number, number>();
  async function seed(userId: number, count: number, teamId: number | null = null): Promise<number[]> {
    const seededIds: number[] = [];
    const batchSize = 500;
    for (let start = 0; start < count; start += batchSize) {
      const rows = [];
      for (let index = start; index < Math.min(count, start + batchSize); index++) {
        const report = documents[(seeded + index) % documents.length];
        if (!report) throw new Error("no documents");
        const url = `https://${hosts[index % hosts.length]}/${words[index % words.length]}/${index}`;
        const generated = timestamp(new Date(Date.UTC(2026, 0, 1) + index * 60_000));
        const score = (index * 37) % 101;
        rows.push({
          user_id: userId,
          team_id: teamId,
          url,
          final_url: url,
          project: hosts[index % hosts.length] as string,
          result: score >= 80 ? "good" : score >= 50 ? "decent" : "bad",
          score,
          privacy: 1,
          password_hash: null,
          generated_at: generated,
          created_at: generated,
          updated_at: generated,
        });
        documentOf.push((seeded + index) % documents.length);
      }
      const ids = await store.db.insertInto("reports").values(rows).returning("id").execute();
      ids.forEach(({ id }, index) => {
        documentOfReport.set(id, documentOf[index] as number);
        seededIds.push(id);
      });
      // Each report's results live on the analysis it shows (migration 022), packed once per document.
      await store.db
        .insertInto("analyses")
        .values(
          rows.map((row, index) => ({
            report_id: (ids[index] as { id: number }).id,
            user_id: row.user_id,
            status: "complete" as const,
            trigger: "create" as const,
            mode: "raw" as const,
            url: row.url,
            final_url: row.final_url,
            result: row.result,
            score: row.score,
            // The summary and category scores live on the analysis too (migration 041).
            summary: JSON.stringify(documents[documentOf[index] as number]?.summary),
            categories: JSON.stringify(documents[documentOf[index] as number]?.categories),
            results: packedDocument(documentOf[index] as number),
            generated_at: row.generated_at,
          })),
        )
        .execute();
      documentOf.length = 0;
    }
    seeded += count;
    return seededIds;
  }
  const documentOf: number[] = [];
  const packed = new Map<number, Buffer>();
  function packedDocument(index: number): Buffer {
    let document = packed.get(index);
    if (!document) {
      document = packResults(JSON.stringify(documents[index]?.results));
      packed.set(index, document);
    }
    return document;
  }
  for (const userId of userIds.slice(0, 100)) await seed(userId, 1_000);
  await seed(largeUser, 100_000);
  // A team of two of the users (the list scenario's user its owner), whose workspace holds as many reports as
  // each user's own (1,000): the team scenarios ask for its list and a report through `team={id}`.
  const now = timestamp();
  const team = await store.db
    .insertInto("teams")
    .values({ name: "Bench team", created_at: now, updated_at: now })
    .returning("id")
    .executeTakeFirstOrThrow();
  await store.db
    .insertInto("team_members")
    .values([
      { team_id: team.id, user_id: userIds[7] as number, role: "owner", joined_at: now },
      { team_id: team.id, user_id: userIds[8] as number, role: "viewer", joined_at: now },
    ])
    .execute();
  const teamReports = await seed(userIds[7] as number, 1_000, team.id);
  await sql`update reports set analyses = 1, analysis_id = (select max(id) from analyses where analyses.report_id = reports.id)`.execute(
    store.db,
  );
  // A database in service has had its statistics gathered (and, on PostgreSQL, autovacuum has set the
  // visibility map that index-only scans need); a freshly bulk-loaded one has not.
  if (schema) await sql`vacuum analyze reports, analyses`.execute(store.db);
  else await sql`analyze`.execute(store.db);
  const seedSeconds = (performance.now() - seedStarted) / 1000;

  // One report with 30 analyses in its history, stored the way the service stores them.
  const historyStore = new ReportStore(store);
  // Stamped now rather than when the corpus page was analysed, so the seeded history reads in order.
  const columnsOf = (report: (typeof documents)[number]) => ({
    ...analysisColumns(report),
    generated_at: timestamp(),
  });
  const firstDocument = documents[0];
  if (!firstDocument) throw new Error("no documents");
  const historyRow = await historyStore.insert({
    user_id: userIds[0] as number,
    ...columnsOf(firstDocument),
    privacy: 1,
    password_hash: null,
    created_at: timestamp(),
    updated_at: timestamp(),
  });
  for (let index = 1; index < 30; index++)
    await historyStore.reanalysed(
      userIds[0] as number,
      historyRow.id,
      columnsOf(documents[index % documents.length] ?? firstDocument),
      "rerun",
    );
  const historyReport = historyRow.id;

  const app = await buildApp({
    store,
    analyzer,
    config: loadServiceConfig({
      DATABASE_URL: databaseUrl,
      // Counting, as in service, but far above what the load reaches.
      PAGEGRADE_RATE_LIMIT: "1000000000",
      PAGEGRADE_ANALYSIS_RATE_LIMIT: "0",
      LOG_LEVEL: "silent",
    }),
    logger: false,
  });
  await app.listen({ host: "127.0.0.1", port: 0 });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  // The same service without its response cache: what a request costs when the cache cannot answer it.
  const uncachedApp = await buildApp({
    store,
    analyzer,
    config: loadServiceConfig({
      DATABASE_URL: databaseUrl,
      PAGEGRADE_RATE_LIMIT: "1000000000",
      PAGEGRADE_ANALYSIS_RATE_LIMIT: "0",
      PAGEGRADE_RESPONSE_CACHE_MB: "0",
      LOG_LEVEL: "silent",
    }),
    logger: false,
  });
  await uncachedApp.listen({ host: "127.0.0.1", port: 0 });
  const uncachedBase = `http://127.0.0.1:${(uncachedApp.server.address() as AddressInfo).port}`;

  // The baselines: for each scenario, a bare node:http server in this process returning the very bytes the service
  // sent for it (as sent: compressed when the client asked for gzip), with the same headers: the client's work
  // depends on them too (autocannon parses every header, and it shares this machine's two cores). Each
  // scenario is measured right after its own baseline, so a ratio compares two runs of the same moment.
  interface Captured {
    body: Buffer;
    headers: Record<string, string>;
  }

  function capture(url: string, key: string, acceptEncoding: string): Promise<Captured> {
    return new Promise((resolve, reject) => {
      const request = httpRequest(
        url,
        { headers: { authorization: `Bearer ${key}`, "accept-encoding": acceptEncoding } },
        (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("end", () => {
            if (response.statusCode !== 200) reject(new Error(`${url} answered ${response.statusCode}`));
            // Every header as sent, but those node:http writes itself (its date and connection headers, and the
            // length, set from the body).
            const headers: Record<string, string> = {};
            for (const [name, value] of Object.entries(response.headers)) {
              if (["date", "connection", "keep-alive", "content-length"].includes(name)) continue;
              headers[name] = Array.isArray(value) ? value.join(", ") : String(value);
            }
            resolve({ body: Buffer.concat(chunks), headers });
          });
        },
      );
      request.on("error", reject);
      request.end();
    });
  }

  async function serveBare({ body, headers }: Captured): Promise<{ url: string; close(): Promise<void> }> {
    const server = createServer((_request, response) => {
      response.writeHead(200, { ...headers, "content-length": body.length });
      response.end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
      close: () => new Promise((resolve) => server.close(() => resolve())),
    };
  }

  const someReport = (await (
    await fetch(`${base}/api/v1/reports?per_page=10`, { headers: { authorization: `Bearer ${largeKey}` } })
  ).json()) as {
    data: Array<{ id: number }>;
  };

  interface Outcome {
    rps: number;
    p50: number;
    p99: number;
    bytes: number;
    errors: number;
    non2xx: number;
  }

  async function load(
    url: string,
    key: string | null,
    connections: number,
    acceptEncoding: string,
  ): Promise<Outcome> {
    const args = ["autocannon", "-c", String(connections), "-d", String(seconds), "-j"];
    args.push("-H", `accept-encoding=${acceptEncoding}`);
    if (key) args.push("-H", `authorization=Bearer ${key}`);
    args.push(url);
    const { stdout } = await run("npx", args, { maxBuffer: 64 * 1024 * 1024 });
    const result = JSON.parse(stdout);
    return {
      rps: result.requests.average,
      p50: result.latency.p50,
      p99: result.latency.p99,
      bytes: result.requests.average > 0 ? result.throughput.average / result.requests.average : 0,
      errors: result.errors,
      non2xx: result.non2xx,
    };
  }

  interface Scenario {
    name: string;
    url: string;
    key: string;
    connections: number;
    /** What the client's Accept-Encoding says: gzip, as browsers and HTTP libraries send, or identity. */
    acceptEncoding: "gzip" | "identity";
    /** Whether the scenario has targets (list per_page=10 and show, at 50 connections). */
    targeted: boolean;
    /** The same scenario in the user's own workspace, which a team scenario is also compared with. */
    withoutTeam?: string;
  }

  const list10 = `${base}/api/v1/reports?per_page=10`;
  const shownId = someReport.data[0]?.id as number;
  const show = `${base}/api/v1/reports/${shownId}`;
  // The team's report that shows the same document as the report of the "show" scenario: the same bytes to send.
  const teamShown = teamReports.find((id) => documentOfReport.get(id) === documentOfReport.get(shownId));
  const searchSort = `${base}/api/v1/reports?search=pricing&result=good&sort_by=url&sort=asc`;
  const scenarios: Scenario[] = [
    {
      name: "list per_page=10",
      url: list10,
      key: keys[7] as string,
      connections: 50,
      acceptEncoding: "gzip",
      targeted: true,
    },
    {
      name: "list per_page=10, uncompressed",
      url: list10,
      key: keys[7] as string,
      connections: 50,
      acceptEncoding: "identity",
      targeted: false,
    },
    { name: "show", url: show, key: largeKey, connections: 50, acceptEncoding: "gzip", targeted: true },
    {
      name: "show, uncompressed",
      url: show,
      key: largeKey,
      connections: 50,
      acceptEncoding: "identity",
      targeted: false,
    },
    {
      name: "list per_page=10, team",
      url: `${list10}&team=${team.id}`,
      key: keys[8] as string,
      connections: 50,
      acceptEncoding: "gzip",
      targeted: true,
      withoutTeam: "list per_page=10",
    },
    {
      name: "show, team",
      url: `${base}/api/v1/reports/${teamShown}?team=${team.id}`,
      key: keys[8] as string,
      connections: 50,
      acceptEncoding: "gzip",
      targeted: true,
      withoutTeam: "show",
    },
    {
      name: "list per_page=10, no response cache",
      url: `${uncachedBase}/api/v1/reports?per_page=10`,
      key: keys[7] as string,
      connections: 50,
      acceptEncoding: "identity",
      targeted: false,
    },
    {
      name: "show, no response cache",
      url: `${uncachedBase}/api/v1/reports/${someReport.data[0]?.id}`,
      key: largeKey,
      connections: 50,
      acceptEncoding: "identity",
      targeted: false,
    },
    {
      name: "list per_page=100",
      url: `${base}/api/v1/reports?per_page=100`,
      key: keys[7] as string,
      connections: 50,
      acceptEncoding: "gzip",
      targeted: false,
    },
    {
      name: "list search+result+sort_by=url (100k user)",
      url: searchSort,
      key: largeKey,
      connections: 50,
      acceptEncoding: "gzip",
      targeted: false,
    },
    {
      name: "a report's analyses per_page=10",
      url: `${base}/api/v1/reports/${historyReport}/analyses?per_page=10`,
      key: keys[0] as string,
      connections: 50,
      acceptEncoding: "gzip",
      targeted: false,
    },
  ];

  console.log(
    `api benchmark: ${databaseUrl.split(":")[0]}, ${seeded} reports seeded in ${seedSeconds.toFixed(0)} s, ${seconds} s per run, ` +
      "each scenario against a bare node:http server returning the same bytes",
  );
  const misses: string[] = [];
  // The issue's targets: at least this share of the bare server's rate (SQLite, PostgreSQL), a team's scenario
  // at least 0.9x the same scenario in the user's own workspace (their shares of the bare server's rate).
  const floorRatio = schema ? 0.6 : 0.8;
  // Each scenario's share of its bare server's rate, by name: a team's scenario is compared with its own-workspace
  // twin through these shares, each measured beside its own bare run (the two send the same bytes, so their bare
  // rates differ only by what the machine did meanwhile); the raw ratio of the two rates is printed too.
  const shares = new Map<string, number>();
  const rates = new Map<string, number>();
  for (const scenario of scenarios) {
    const bare = await serveBare(await capture(scenario.url, scenario.key, scenario.acceptEncoding));
    const floor = await load(bare.url, null, scenario.connections, scenario.acceptEncoding);
    await bare.close();
    const outcome = await load(scenario.url, scenario.key, scenario.connections, scenario.acceptEncoding);
    const ratio = outcome.rps / floor.rps;
    rates.set(scenario.name, outcome.rps);
    shares.set(scenario.name, ratio);
    const ownShare = scenario.withoutTeam === undefined ? undefined : shares.get(scenario.withoutTeam);
    const ownRate = scenario.withoutTeam === undefined ? undefined : rates.get(scenario.withoutTeam);
    const teamRatio = ownShare === undefined ? undefined : ratio / ownShare;
    const rawTeamRatio = ownRate === undefined ? undefined : outcome.rps / ownRate;
    console.log(
      `${scenario.name.padEnd(44)} ${outcome.rps.toFixed(0).padStart(6)} req/s  ${ratio.toFixed(2)}x bare (${floor.rps.toFixed(0)} req/s, p99 ${floor.p99} ms)${teamRatio === undefined ? "" : `  ${teamRatio.toFixed(2)}x without team (each against its bare run; ${rawTeamRatio?.toFixed(2)}x their raw rates)`}   p50 ${outcome.p50} ms  p99 ${outcome.p99} ms  ${(outcome.bytes / 1024).toFixed(1)} KiB/response${outcome.errors || outcome.non2xx ? `  errors ${outcome.errors} non-2xx ${outcome.non2xx}` : ""}`,
    );
    if (scenario.targeted) {
      if (ratio < floorRatio) misses.push(`${scenario.name} at ${ratio.toFixed(2)}x bare`);
      if (outcome.p99 >= 50) misses.push(`${scenario.name} p99 ${outcome.p99} ms`);
      if (teamRatio !== undefined && teamRatio < 0.9)
        misses.push(`${scenario.name} at ${teamRatio.toFixed(2)}x without team`);
    }
  }
  const single = await load(searchSort, largeKey, 1, "gzip");
  console.log(
    `${"search+sort, one at a time (100k user)".padEnd(44)} ${single.rps.toFixed(0).padStart(6)} req/s  p50 ${single.p50} ms  p99 ${single.p99} ms`,
  );
  if (single.p50 >= 20) misses.push(`search+sort median ${single.p50} ms`);
  console.log(
    `targets (list per_page=10 and show, own and team, >= ${floorRatio}x bare, p99 < 50 ms at 50 connections; team >= 0.9x without team; search+sort median < 20 ms): ${misses.length === 0 ? "ok" : `MISSED: ${misses.join("; ")}`}`,
  );
  await app.close();
  await uncachedApp.close();
  if (schema) await store.db.schema.dropSchema(schema).cascade().execute();
  await store.close();
  return misses;
}

const missed: string[] = [];
for (const databaseUrl of databaseUrls)
  for (const miss of await measure(databaseUrl)) missed.push(`${databaseUrl.split(":")[0]}: ${miss}`);
await analyzer.close();
rmSync(tempDir, { recursive: true, force: true });
if (databaseUrls.length > 1)
  console.log(`targets over every database: ${missed.length === 0 ? "ok" : `MISSED: ${missed.join("; ")}`}`);
