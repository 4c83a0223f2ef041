/**
 * `npm run bench:api`: the service under load from autocannon (a separate process on the same machine).
 * Seeds 100,000 reports over 100 users plus one user who owns 100,000 more, with realistic analysis results
 * (real reports of corpus pages), then measures requests per second and p99 at 50 connections for:
 * list per_page=10, list per_page=100, list with search + result + sort_by=url (the large user), show, a
 * report's analyses, and two baselines in the same process returning the very bytes of the per_page=10 list
 * response from memory: a bare node:http server (the floor for Node, the one the ratios are taken against) and
 * a bare fastify route. The service counts every request against the per-key rate limit (set far above what
 * the load reaches, so it counts but never refuses). Also the median latency of search + sort over the large
 * user's reports, one request at a time.
 * BENCH_DATABASE_URL picks the database (default: a fresh SQLite file); BENCH_SECONDS the length of each run.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import Fastify from "fastify";
import { sql } from "kysely";
import { AccountService } from "../src/accounts/account-service.js";
import { Analyzer } from "../src/analysis/analyse.js";
import { buildApp } from "../src/app.js";
import { loadAnalysisConfig, loadServiceConfig } from "../src/config.js";
import { analysisColumns } from "../src/reports/report-service.js";
import { openStore } from "../src/store/database.js";
import { ReportStore } from "../src/store/report-store.js";
import { timestamp } from "../src/timestamps.js";
import { loadCorpus, serveCorpus } from "../test/helpers/corpus.js";

const run = promisify(execFile);
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const tempDir = mkdtempSync(join(tmpdir(), "pagegrade-bench-"));
const databaseUrl = process.env.BENCH_DATABASE_URL ?? `sqlite:${join(tempDir, "bench.db")}`;
const schema = databaseUrl.startsWith("postgres") ? `bench_${process.pid}` : undefined;

// Realistic analysis documents: real reports of corpus pages.
const analyzer = new Analyzer(loadAnalysisConfig({ PAGEGRADE_ALLOW_PRIVATE_NETWORKS: "1" }));
const corpus = loadCorpus().slice(0, 40);
const corpusServer = await serveCorpus(corpus);
const documents: Array<Awaited<ReturnType<Analyzer["analyse"]>>["report"]> = [];
for (const page of corpus)
  documents.push((await analyzer.analyse(`${corpusServer.url}/${page.name}`)).report);
await corpusServer.close();

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
async function seed(userId: number, count: number): Promise<void> {
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
        url,
        final_url: url,
        project: hosts[index % hosts.length] as string,
        result: score >= 80 ? "good" : score >= 50 ? "decent" : "bad",
        score,
        privacy: 1,
        password_hash: null,
        summary: JSON.stringify(report.summary),
        categories: JSON.stringify(report.categories),
        results: JSON.stringify(report.results),
        generated_at: generated,
        created_at: generated,
        updated_at: generated,
      });
    }
    await store.db.insertInto("reports").values(rows).execute();
  }
  seeded += count;
}
for (const userId of userIds.slice(0, 100)) await seed(userId, 1_000);
await seed(largeUser, 100_000);
// A database in service has had its statistics gathered (and, on PostgreSQL, autovacuum has set the
// visibility map that index-only scans need); a freshly bulk-loaded one has not.
if (schema) await sql`vacuum analyze reports`.execute(store.db);
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

// The baselines, in the same process: the very bytes of a per_page=10 list, from memory, with the headers a
// client needs (type and length).
const sampleList = await fetch(`${base}/api/v1/reports?per_page=10`, {
  headers: { authorization: `Bearer ${keys[7]}` },
});
const staticBody = Buffer.from(await sampleList.arrayBuffer());
const node = createServer((_request, response) => {
  response.writeHead(200, {
    "content-type": "application/json; charset=utf-8",
    "content-length": staticBody.length,
  });
  response.end(staticBody);
});
await new Promise<void>((resolve) => node.listen(0, "127.0.0.1", resolve));
const nodeUrl = `http://127.0.0.1:${(node.address() as AddressInfo).port}/`;
const bare = Fastify({ logger: false });
bare.get("/bare", async (_request, reply) => reply.type("application/json; charset=utf-8").send(staticBody));
await bare.listen({ host: "127.0.0.1", port: 0 });
const bareUrl = `http://127.0.0.1:${(bare.server.address() as AddressInfo).port}/bare`;

const someReport = (await (
  await fetch(`${base}/api/v1/reports?per_page=10`, { headers: { authorization: `Bearer ${largeKey}` } })
).json()) as {
  data: Array<{ id: number }>;
};

interface Outcome {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

async function load(url: string, key: string | null, connections: number): Promise<Outcome> {
  const args = ["autocannon", "-c", String(connections), "-d", String(seconds), "-j"];
  if (key) args.push("-H", `authorization=Bearer ${key}`);
  args.push(url);
  const { stdout } = await run("npx", args, { maxBuffer: 64 * 1024 * 1024 });
  const result = JSON.parse(stdout);
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

const baselineName = "bare node:http, same bytes (baseline)";
const scenarios: Array<[string, string, string | null, number]> = [
  [baselineName, nodeUrl, null, 50],
  ["bare fastify route, same bytes", bareUrl, null, 50],
  ["list per_page=10", `${base}/api/v1/reports?per_page=10`, keys[7] as string, 50],
  ["list per_page=100", `${base}/api/v1/reports?per_page=100`, keys[7] as string, 50],
  [
    "list search+result+sort_by=url (100k user)",
    `${base}/api/v1/reports?search=pricing&result=good&sort_by=url&sort=asc`,
    largeKey,
    50,
  ],
  ["show", `${base}/api/v1/reports/${someReport.data[0]?.id}`, largeKey, 50],
  [
    "a report's analyses per_page=10",
    `${base}/api/v1/reports/${historyReport}/analyses?per_page=10`,
    keys[0] as string,
    50,
  ],
  [
    "search+sort, one at a time (100k user)",
    `${base}/api/v1/reports?search=pricing&result=good&sort_by=url&sort=asc`,
    largeKey,
    1,
  ],
];

console.log(
  `api benchmark: ${databaseUrl.split(":")[0]}, ${seeded} reports seeded in ${seedSeconds.toFixed(0)} s, ${seconds} s per run`,
);
const outcomes = new Map<string, Outcome>();
for (const [name, url, key, connections] of scenarios) {
  const outcome = await load(url, key, connections);
  outcomes.set(name, outcome);
  const baseline = outcomes.get(baselineName)?.rps ?? outcome.rps;
  console.log(
    `${name.padEnd(44)} ${outcome.rps.toFixed(0).padStart(6)} req/s  ${(outcome.rps / baseline).toFixed(2)}x bare   p50 ${outcome.p50} ms  p99 ${outcome.p99} ms  c=${connections}${outcome.errors || outcome.non2xx ? `  errors ${outcome.errors} non-2xx ${outcome.non2xx}` : ""}`,
  );
}
const list10 = outcomes.get("list per_page=10") as Outcome;
const bareOutcome = outcomes.get(baselineName) as Outcome;
const single = outcomes.get("search+sort, one at a time (100k user)") as Outcome;
const verdict = (ok: boolean) => (ok ? "ok" : "MISSED");
console.log(
  `targets: list per_page=10 >= 0.5x bare node:http: ${verdict(list10.rps >= bareOutcome.rps / 2)}; list p99 < 50 ms: ${verdict(list10.p99 < 50)}; search+sort median < 20 ms: ${verdict(single.p50 < 20)}`,
);

await app.close();
await bare.close();
await new Promise((resolve) => node.close(resolve));
await analyzer.close();
if (schema) await store.db.schema.dropSchema(schema).cascade().execute();
await store.close();
rmSync(tempDir, { recursive: true, force: true });
