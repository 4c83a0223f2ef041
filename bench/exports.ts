/**
 * `npm run bench:exports`: the crawl exports stream. A crawl of 10,000 pages (BENCH_EXPORT_PAGES) with 10 internal
 * links per page (100,000 links) and 3 failed checks per page is written straight into a fresh database (SQLite,
 * then PostgreSQL at PAGEGRADE_TEST_POSTGRES_URL when it answers), and the service, in a process of its own
 * (bench/exports/serve.ts, started as `npm start` starts it) listening on 127.0.0.1, is asked for its CSV
 * exports: the links (100,000 rows), the pages and a check's affected pages (10,000 rows each). For each: time to
 * the first byte, the whole download, and the service's RSS growth while downloading (its VmRSS sampled every
 * 5 ms, from after a first, small export), against the size of the CSV. The baseline, measured in the same run: a bare node:http server sending the same CSV from
 * memory in 64 KiB chunks (what a download costs with no database and no encoding).
 * Targets: the first byte within 1 s; RSS growth well below the CSV's size (the export is never held whole).
 * On PostgreSQL the tables are analysed after seeding, as autovacuum does after a crawl's inserts.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { createServer, get } from "node:http";
import type { AddressInfo } from "node:net";
import { sql } from "kysely";
import {
  type BenchDatabase,
  benchDatabase,
  benchUser,
  postgresAnswers,
  postgresUrl,
  seedShopCrawl,
} from "./seeded-crawl.js";

const pages = Number(process.env.BENCH_EXPORT_PAGES ?? 10_000);
const linksPerPage = 10;
const site = "https://shop.example";
const here = new URL(".", import.meta.url).pathname;

interface Download {
  firstByteMs: number;
  totalMs: number;
  bytes: number;
  lines: number;
  rssGrowthMb: number;
}

/** The resident set of the process, in bytes (this one's without a pid). */
function rssOf(pid?: number): number {
  if (pid === undefined) return process.memoryUsage.rss();
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
}

/** Downloads the URL, discarding what arrives, sampling the serving process's RSS as it goes. */
async function download(url: string, headers: Record<string, string>, pid?: number): Promise<Download> {
  global.gc?.();
  const before = rssOf(pid);
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssOf(pid));
  }, 5);
  const started = performance.now();
  try {
    return await new Promise<Download>((resolve, reject) => {
      get(url, { headers }, (response) => {
        if (response.statusCode !== 200) reject(new Error(`${url}: ${response.statusCode}`));
        let firstByteMs = 0;
        let bytes = 0;
        let lines = 0;
        response.on("data", (chunk: Buffer) => {
          if (bytes === 0) firstByteMs = performance.now() - started;
          bytes += chunk.length;
          for (let index = chunk.indexOf(10); index !== -1; index = chunk.indexOf(10, index + 1)) lines++;
        });
        response.on("end", () =>
          resolve({
            firstByteMs,
            totalMs: performance.now() - started,
            bytes,
            lines,
            rssGrowthMb: (peak - before) / 2 ** 20,
          }),
        );
        response.on("error", reject);
      }).on("error", reject);
    });
  } finally {
    clearInterval(sampler);
  }
}

/** The same bytes from memory, 64 KiB at a time, from a bare server: the baseline. */
async function baseline(body: Buffer): Promise<Download> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { "content-type": "text/csv; charset=utf-8" });
    let offset = 0;
    const write = () => {
      while (offset < body.length) {
        const chunk = body.subarray(offset, offset + 65_536);
        offset += chunk.length;
        if (!response.write(chunk)) return void response.once("drain", write);
      }
      response.end();
    };
    write();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    return await download(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, {});
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

/** A complete crawl of `pages` pages, its links and its failed checks, written directly. */
async function benchOn(kind: string, database: BenchDatabase): Promise<void> {
  const { store, url: databaseUrl, schema } = database;
  const { userId, key } = await benchUser(store);
  const seeding = performance.now();
  const crawlId = await seedShopCrawl(store, userId, { pages, linksPerPage, site });
  // As autovacuum leaves a table after a crawl's inserts: the planner knows its size.
  if (schema) await sql`analyze crawl_links, crawl_pages, crawl_page_checks`.execute(store.db);
  console.log(
    `${kind}: seeded ${pages} pages, ${pages * linksPerPage} links in ${((performance.now() - seeding) / 1000).toFixed(1)} s`,
  );
  const service = spawn(
    process.execPath,
    ["--max-semi-space-size=16", "--import", "tsx", `${here}exports/serve.ts`],
    {
      stdio: ["ignore", "pipe", "inherit"],
      env: {
        ...process.env,
        MALLOC_ARENA_MAX: "2",
        BENCH_DATABASE_URL: databaseUrl,
        ...(schema ? { BENCH_SCHEMA: schema } : {}),
      },
    },
  );
  const port = ((await once(service.stdout, "data")) as [Buffer])[0].toString().trim();
  const base = `http://127.0.0.1:${port}/api/v1/crawls/${crawlId}`;
  const headers = { authorization: `Bearer ${key}`, accept: "text/csv" };
  const whole = (url: string) =>
    new Promise<Buffer>((resolve, reject) => {
      get(url, { headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => resolve(Buffer.concat(chunks)));
      }).on("error", reject);
    });
  try {
    // Warm-up: the service's code paths, with a small export.
    await whole(`${base}/checks`);
    const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(1);
    console.log(`${kind}: the service's RSS before the exports ${mb(rssOf(service.pid))} MB`);
    for (const path of ["/links", "/pages", "/checks/image-alt/pages"]) {
      const served = await download(`${base}${path}`, headers, service.pid);
      // The baseline: the very bytes, from memory.
      const bare = await baseline(await whole(`${base}${path}`));
      console.log(
        `${kind} ${path}: ${served.lines - 1} rows, ${mb(served.bytes)} MB; first byte ${served.firstByteMs.toFixed(0)} ms ` +
          `(bare server ${bare.firstByteMs.toFixed(1)} ms); whole download ${served.totalMs.toFixed(0)} ms, ` +
          `${(served.totalMs / bare.totalMs).toFixed(1)}× the bare server's ${bare.totalMs.toFixed(0)} ms; ` +
          `service RSS growth ${served.rssGrowthMb.toFixed(1)} MB = ${((served.rssGrowthMb * 2 ** 20) / served.bytes).toFixed(2)}× the CSV`,
      );
    }
  } finally {
    service.kill("SIGTERM");
    await once(service, "exit");
  }
}

/** The benchmark on a fresh database of the kind, removed afterwards whatever happens. */
async function benchOnFresh(kind: "sqlite" | "postgres"): Promise<void> {
  const database = await benchDatabase(kind);
  try {
    await benchOn(kind === "sqlite" ? "SQLite" : "PostgreSQL", database);
  } finally {
    await database.drop();
  }
}

await benchOnFresh("sqlite");
if (await postgresAnswers()) await benchOnFresh("postgres");
else console.log(`PostgreSQL at ${postgresUrl} does not answer: skipped`);
