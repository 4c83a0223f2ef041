/**
 * `npm run bench:history-size`: how many bytes one stored analysis costs. Analyses every corpus page (served
 * from 127.0.0.1), stores each as a re-run of one report in a fresh SQLite database, and prints per analysis:
 * the results document as JSON text (what a history row would hold uncompressed) against what the row holds
 * (results brotli-compressed, plus URL, summary, categories and the small columns), as median and p95, and the
 * file's growth per analysis (indexes and page slack included). Also the time to pack and unpack a document.
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { AccountService } from "../src/accounts/account-service.js";
import { type AnalysisReport, Analyzer } from "../src/analysis/analyse.js";
import { loadAnalysisConfig } from "../src/config.js";
import { analysisColumns } from "../src/reports/analysis-columns.js";
import { packResults, unpackResults } from "../src/store/analysis-document.js";
import { openStore } from "../src/store/database.js";
import { ReportStore } from "../src/store/report-store.js";
import { timestamp } from "../src/timestamps.js";
import { loadCorpus, serveCorpus } from "../test/helpers/corpus.js";

const corpus = loadCorpus();
const server = await serveCorpus(corpus);
const analyzer = new Analyzer(loadAnalysisConfig({ PAGEGRADE_ALLOW_PRIVATE_NETWORKS: "1" }));
const reports: AnalysisReport[] = [];
for (const page of corpus) {
  try {
    reports.push((await analyzer.analyse(`${server.url}/${page.name}`)).report);
  } catch {
    // A page the engine refuses (not HTML, too large) has no analysis to store.
  }
}
await server.close();
await analyzer.close();

const dir = mkdtempSync(join(tmpdir(), "pagegrade-history-size-"));
const file = join(dir, "history.db");
const store = await openStore(`sqlite:${file}`);
const { account } = await new AccountService(store).createUser("size@example.com", null);
const history = new ReportStore(store, { historyLimit: 0 });
const first = reports[0];
if (!first) throw new Error("no corpus page could be analysed");
const now = timestamp();
const report = await history.insert({
  user_id: account.id,
  ...analysisColumns(first),
  privacy: 1,
  password_hash: null,
  created_at: now,
  updated_at: now,
});
await sql`pragma wal_checkpoint(truncate)`.execute(store.db);
const sizeBefore = statSync(file).size;
for (const next of reports.slice(1))
  await history.reanalysed(account.id, report.id, analysisColumns(next), "rerun");
await sql`pragma wal_checkpoint(truncate)`.execute(store.db);
const growth = (statSync(file).size - sizeBefore) / (reports.length - 1);

// What each history row holds: every column's stored bytes (integers counted at 8).
const rows = await sql<{ bytes: number }>`select
    length(cast(url as blob)) + ifnull(length(cast(final_url as blob)), 0) + length(status) + length("trigger")
    + length(mode) + ifnull(length(result), 0) + ifnull(length(summary), 0) + ifnull(length(categories), 0)
    + ifnull(length(results), 0) + length(generated_at) + 8 * 4 as bytes
  from analyses`.execute(store.db);
await store.close();
rmSync(dir, { recursive: true, force: true });

const stored = rows.rows.map((row) => Number(row.bytes));
const json = reports.map((next) => Buffer.byteLength(JSON.stringify(next.results)));
const packMs: number[] = [];
const unpackMs: number[] = [];
for (const next of reports) {
  const text = JSON.stringify(next.results);
  let t0 = performance.now();
  const packed = packResults(text);
  packMs.push(performance.now() - t0);
  t0 = performance.now();
  unpackResults(packed);
  unpackMs.push(performance.now() - t0);
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
};
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
console.log(`analyses of corpus pages: ${reports.length}`);
console.log(
  `results JSON (uncompressed)   median ${kb(quantile(json, 0.5))}   p95 ${kb(quantile(json, 0.95))}`,
);
console.log(
  `history row as stored         median ${kb(quantile(stored, 0.5))}   p95 ${kb(quantile(stored, 0.95))}   (ratio to JSON: ${(quantile(stored, 0.5) / quantile(json, 0.5)).toFixed(2)})`,
);
console.log(`SQLite file growth per analysis (indexes, page slack included): ${kb(growth)}`);
console.log(
  `brotli pack median ${quantile(packMs, 0.5).toFixed(2)} ms (p95 ${quantile(packMs, 0.95).toFixed(2)}), unpack median ${quantile(unpackMs, 0.5).toFixed(2)} ms`,
);
const yearOf10k = quantile(stored, 0.5) * 365 * 10_000;
console.log(
  `a year of daily analyses of 10,000 pages at the median: ${(yearOf10k / 1024 ** 3).toFixed(1)} GiB`,
);
