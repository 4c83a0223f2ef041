/**
 * `npm run bench:audit-pdf`: what a crawl's audit PDF costs. A complete crawl of 10,000 analysed pages
 * (BENCH_AUDIT_PAGES) with 3 checks failed or warned on every page (bench/seeded-crawl.ts's shop) is written into
 * a fresh SQLite database, and the service (in this process, no workers) is asked for
 * `GET /api/v1/crawls/{id}/audit.pdf` once (its first print, Chromium's start included). Prints the time, the
 * PDF's size and A4 pages, and the process's RSS growth over the request.
 * Target (api-contract.md part 4): under 60 s for 10,000 analysed pages, memory bounded (each issue lists its
 * first 25 pages, never the whole crawl).
 */
import { Analyzer } from "../src/analysis/analyse.js";
import { buildApp } from "../src/app.js";
import { loadAnalysisConfig, loadServiceConfig } from "../src/config.js";
import { testServiceSettings } from "../test/helpers/api.js";
import { pdfPages } from "../test/helpers/pdf.js";
import { benchDatabase, benchUser, seedShopCrawl } from "./seeded-crawl.js";

const pages = Number(process.env.BENCH_AUDIT_PAGES ?? 10_000);
const database = await benchDatabase("sqlite");
const analyzer = new Analyzer(loadAnalysisConfig({ PAGEGRADE_CHROMIUM_SANDBOX: "0" }));
try {
  const { userId, key } = await benchUser(database.store);
  const seeding = performance.now();
  const crawlId = await seedShopCrawl(database.store, userId, {
    pages,
    linksPerPage: 2,
    site: "https://shop.example",
  });
  console.log(`seeded ${pages} pages in ${((performance.now() - seeding) / 1000).toFixed(1)} s`);
  const config = loadServiceConfig({
    DATABASE_URL: database.url,
    ...testServiceSettings,
    PAGEGRADE_WORKERS: "0",
  });
  const app = await buildApp({ store: database.store, analyzer, config, logger: false });
  await app.ready();
  const rssBefore = process.memoryUsage().rss;
  {
    const started = performance.now();
    const answer = await app.inject({
      method: "GET",
      url: `/api/v1/crawls/${crawlId}/audit.pdf`,
      headers: { authorization: `Bearer ${key}` },
    });
    const seconds = (performance.now() - started) / 1000;
    if (answer.statusCode !== 200) throw new Error(`audit.pdf answered ${answer.statusCode}: ${answer.body}`);
    const printed = pdfPages(answer.rawPayload).length;
    console.log(
      `audit PDF of ${pages} pages: ${seconds.toFixed(1)} s, ${(answer.rawPayload.length / 1024).toFixed(0)} KiB, ${printed} A4 pages`,
    );
  }
  console.log(`RSS growth: ${((process.memoryUsage().rss - rssBefore) / 1024 / 1024).toFixed(0)} MiB`);
  await app.close();
} finally {
  await analyzer.close();
  await database.drop();
}
