/**
 * `pagegrade crawl <url>`: a whole site crawled without the service, by the same crawler the service runs, into a
 * temporary SQLite database removed at the end (`--file urls.txt` instead of a URL: list mode, those URLs only;
 * `--extract JSON`: extraction rules, their values in the pages' output). A progress line on a terminal, the site issues printed at the
 * end; `--json-lines` writes every page (as the API's crawl_page object), `--csv DIR` writes pages.csv and
 * issues.csv. The site gate for CI (gate/site-gate-run.ts): `--json FILE` saves the crawl as a baseline,
 * `--baseline FILE` fails on findings new since it (at or above `--fail-on`), `--budget FILE` on findings beyond
 * a budget, `--junit FILE` writes the findings as JUnit XML. Exit 0 when the crawl completed, analysed its start
 * page and passed the gate; 1 when it failed the gate; 2 when the crawl could not run, or on bad usage; the
 * last line printed says why. Ctrl-C stops the crawl and still prints what it found.
 * `--header "Name: value"` (repeatable) sends a request header to the site's own hosts (a crawl behind a
 * login), sealed in the temporary database with PAGEGRADE_ENCRYPTION_KEY or, without it, a key made for this
 * run. `--file` crawls a list of URLs only; `--extract` adds extraction rules.
 */
import { randomBytes } from "node:crypto";
import {
  createWriteStream,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { parseArgs } from "node:util";
import { AccountService } from "../accounts/account-service.js";
import { Analyzer } from "../analysis/analyse.js";
import { defaultScheduleIntervals, loadAnalysisConfig, loadServiceConfig } from "../config.js";
import { CrawlFindings } from "../crawls/crawl-findings.js";
import { CrawlListings } from "../crawls/crawl-listing-store.js";
import { crawlFields } from "../crawls/crawl-service.js";
import type { CrawlRow, ListedPageRow } from "../crawls/crawl-store.js";
import { openCrawlStores } from "../crawls/crawl-stores.js";
import { crawlHere } from "../crawls/crawler.js";
import {
  crawlError,
  crawlPageColumns,
  crawlPageObject,
  crawlPagesCsv,
  extractionNames,
  siteIssueObject,
} from "../crawls/present.js";
import { UsageError, ValidationFailed } from "../errors.js";
import { silentEventSink } from "../events/event-sink.js";
import { openStore } from "../store/database.js";
import { ReportStore } from "../store/report-store.js";
import { SecretBox } from "../store/secret-box.js";
import type { Store } from "../store/store.js";
import { timestamp } from "../timestamps.js";
import { type Palette, paletteFor } from "./colour.js";
import { judgeSiteGate, readSiteGate, siteSnapshot } from "./gate/site-gate-run.js";
import { safe } from "./render-report.js";

/** The API's CSV columns without report ids: the temporary database's ids mean nothing afterwards. */
const pageColumns = crawlPageColumns.filter((column) => column !== "report_id");

const itemsShown = 5;

export async function runCrawl(args: string[]): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(args);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  const list = values.file === undefined ? undefined : readUrlFile(values.file);
  if (list === undefined && positionals.length !== 1) throw new UsageError("crawl takes exactly one URL");
  if (list !== undefined && positionals.length !== 0) {
    throw new UsageError("crawl takes a URL or --file, not both");
  }
  const gate = readSiteGate(values);
  const config = loadServiceConfig();
  const settings = config.crawls;
  // The database lasts as long as the command: a key of its own serves when none is configured.
  const secrets = new SecretBox(config.encryptionKey ?? randomBytes(32));
  const concurrency = wholeNumber(values.concurrency, "--concurrency", 1, 16) ?? settings.hostConcurrency;
  let fields: ReturnType<typeof crawlFields>;
  const analyzer = new Analyzer(loadAnalysisConfig());
  try {
    fields = crawlFields(
      {
        ...(list === undefined ? { url: positionals[0] as string } : { urls: list }),
        ...(values.extract === undefined ? {} : { extract: values.extract }),
        max_pages: wholeNumber(values["max-pages"], "--max-pages", 1, settings.maxPages),
        max_depth: wholeNumber(values["max-depth"], "--max-depth", 0, 50),
        include: values.include,
        exclude: values.exclude,
        ...(values["no-sitemaps"] ? { sitemaps: 0 } : {}),
        headers: values.header,
      },
      { maxPages: settings.maxPages, renderingAvailable: analyzer.renderingAvailable(), secrets },
    );
  } catch (error) {
    await analyzer.close();
    if (error instanceof ValidationFailed) throw new UsageError(error.message);
    throw error;
  }

  const directory = mkdtempSync(join(tmpdir(), "pagegrade-crawl-"));
  const store = await openStore(`sqlite:${join(directory, "crawl.db")}`);
  const stores = openCrawlStores(store);
  const { crawls, listings } = stores;
  let interrupt = () => {};
  const onInterrupt = () => interrupt();
  process.on("SIGINT", onInterrupt);
  try {
    const userId = (await new AccountService(store).createUser("crawl@pagegrade.invalid", null)).account.id;
    const now = timestamp();
    const created = await crawls.insert({
      ...fields,
      parts: concurrency,
      user_id: userId,
      created_at: now,
      updated_at: now,
    });
    // The first Ctrl-C cancels: the crawl stops within a page and still judges what it found. The second quits.
    interrupt = () => {
      interrupt = () => process.exit(130);
      void crawls.requestCancel(userId, created.id, timestamp());
    };
    const progress = new CrawlProgress(process.stderr);
    await crawlHere(
      {
        stores,
        reports: new ReportStore(store, { historyLimit: 1 }),
        analyzer,
        events: silentEventSink,
        settings: { ...settings, hostConcurrency: concurrency },
        scheduleIntervals: defaultScheduleIntervals, // the command's crawl has no schedule
        outbound: analyzer.outbound(),
        secrets,
        onProgress: (id) => void crawls.find(userId, id).then((row) => row && progress.draw(row)),
      },
      created,
    );
    progress.finish();
    const crawl = (await crawls.find(userId, created.id)) as CrawlRow;
    await writeOutputs(store, crawl, values["json-lines"], values.csv);
    process.stdout.write(await summary(listings, crawl, paletteFor(process.stdout)));
    const start = (await listings.pages(crawl.id, { limit: 1, offset: 0 }))[0];
    if (crawl.status !== "complete" || start?.report_id === null || start?.report_id === undefined) {
      const why =
        crawlError(crawl)?.message ??
        (crawl.status === "complete"
          ? "its start page could not be analysed"
          : `the crawl was ${crawl.status}`);
      process.stderr.write(`pagegrade: the crawl could not run: ${safe(why)}\n`);
      return 2;
    }
    const verdict = judgeSiteGate(
      gate,
      await siteSnapshot(stores, crawl),
      process.stdout,
      paletteFor(process.stdout),
    );
    process.stderr.write(`pagegrade: ${verdict.reason}\n`);
    return verdict.code;
  } finally {
    process.off("SIGINT", onInterrupt);
    await analyzer.close();
    await store.close();
    rmSync(directory, { recursive: true, force: true });
  }
}

function parse(args: string[]) {
  return parseArgs({
    args,
    allowPositionals: true,
    options: {
      "max-pages": { type: "string" },
      "max-depth": { type: "string" },
      include: { type: "string", multiple: true },
      exclude: { type: "string", multiple: true },
      concurrency: { type: "string" },
      "no-sitemaps": { type: "boolean" },
      file: { type: "string" },
      extract: { type: "string" },
      "json-lines": { type: "string" },
      csv: { type: "string" },
      header: { type: "string", multiple: true },
      json: { type: "string" },
      baseline: { type: "string" },
      budget: { type: "string" },
      junit: { type: "string" },
      "fail-on": { type: "string" },
    },
  });
}

function wholeNumber(raw: string | undefined, name: string, min: number, max: number): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new UsageError(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
  }
  return Number(raw);
}

/** The largest URL list file read: what the API takes in a body. */
const maxUrlFileBytes = 1024 * 1024;

/** A list of URLs, one per line, from a file. */
function readUrlFile(path: string): string {
  try {
    if (statSync(path).size > maxUrlFileBytes) {
      throw new UsageError(`--file "${path}" is larger than ${maxUrlFileBytes} bytes`);
    }
    return readFileSync(path, "utf8");
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`cannot read --file "${path}": ${(error as Error).message}`);
  }
}

/** Every page of the crawl, in the order found, a page of rows at a time. */
async function* allRows(listings: CrawlListings, crawlId: number) {
  for (let offset = 0; ; offset += 500) {
    const rows = await listings.pages(crawlId, { limit: 500, offset });
    yield* rows;
    if (rows.length < 500) return;
  }
}

async function writeOutputs(
  store: Store,
  crawl: CrawlRow,
  jsonLines: string | undefined,
  csvDirectory: string | undefined,
): Promise<void> {
  const listings = new CrawlListings(store);
  if (jsonLines !== undefined) {
    const out = jsonLines === "-" ? process.stdout : createWriteStream(jsonLines);
    const names = extractionNames(crawl);
    for await (const row of allRows(listings, crawl.id)) {
      const { report_id: _reportId, ...line } = crawlPageObject(row, names); // the temporary database's ids mean nothing afterwards
      out.write(`${JSON.stringify(line)}\n`);
    }
    if (out !== process.stdout) await new Promise<void>((resolve) => out.end(() => resolve()));
  }
  if (csvDirectory !== undefined) {
    const pages: ListedPageRow[] = [];
    for await (const row of allRows(listings, crawl.id)) pages.push(row);
    const stores = openCrawlStores(store);
    const findings = new CrawlFindings(stores.rollups, stores.links, stores.listings);
    try {
      mkdirSync(csvDirectory, { recursive: true });
      writeFileSync(
        join(csvDirectory, "pages.csv"),
        crawlPagesCsv(pages, extractionNames(crawl), pageColumns),
      );
      // The API's issues export: one row per finding, with every page linking to a link finding's URL.
      await pipeline(
        Readable.from(findings.issuesCsv(crawl.id)),
        createWriteStream(join(csvDirectory, "issues.csv")),
      );
    } catch (error) {
      throw new UsageError(`cannot write the CSV files in "${csvDirectory}": ${(error as Error).message}`);
    }
  }
}

/** The end of the run: counts, the site score, then each site issue with its first items. */
async function summary(listings: CrawlListings, crawl: CrawlRow, c: Palette): Promise<string> {
  const lines: string[] = [];
  const tone = crawl.result === "good" ? c.green : crawl.result === "decent" ? c.yellow : c.red;
  lines.push(c.bold(`${safe(crawl.url)}  (${crawl.status})`));
  const error = crawlError(crawl);
  if (error) lines.push(c.red(`${safe(error.message)} (${error.reason})`));
  lines.push(
    `${crawl.analysed} pages analysed, ${crawl.failed} failed, ${crawl.excluded} not fetched, ${crawl.discovered} found`,
  );
  if (crawl.not_reached > 0) {
    lines.push(
      `Limited: stopped at its limits (--max-pages ${crawl.max_pages}, --max-depth ${crawl.max_depth}); ${crawl.not_reached} URLs found were not reached`,
    );
  }
  if (crawl.urls_dropped > 0 || crawl.links_dropped > 0) {
    lines.push(
      `Left out by the storage bounds: ${crawl.urls_dropped} new URLs not listed, ${crawl.links_dropped} links not recorded`,
    );
  }
  if (crawl.score !== null) {
    lines.push(
      `${tone(c.bold(String(crawl.result).toUpperCase()))}  ${c.bold(String(crawl.score))}/100 site score`,
    );
  }
  const issues = (await listings.issues(crawl.id)).map(siteIssueObject);
  lines.push("");
  lines.push(issues.length === 0 ? c.green("No site issues found.") : c.bold("Site issues"));
  for (const issue of issues) {
    const mark =
      issue.importance === "high" ? c.red("✗") : issue.importance === "medium" ? c.yellow("!") : c.dim("·");
    lines.push(`${mark} ${c.bold(safe(issue.title))} (${issue.importance}, ${issue.count})`);
    lines.push(`    ${safe(issue.message)}`);
    for (const item of issue.items.slice(0, itemsShown)) lines.push(`    - ${safe(describeItem(item))}`);
    if (issue.count > itemsShown) lines.push(c.dim(`    … and ${issue.count - itemsShown} more`));
  }
  return `${lines.join("\n")}\n`;
}

/** One finding on one line: its URL or group of pages, and where it is linked from. */
function describeItem(item: Record<string, unknown>): string {
  const subject =
    typeof item.url === "string" ? item.url : Array.isArray(item.pages) ? item.pages.join(", ") : "";
  const extra = Object.entries(item)
    .filter(([key, value]) => !["url", "pages", "sources", "fingerprint"].includes(key) && value !== null)
    .map(([key, value]) => `${key} ${typeof value === "object" ? JSON.stringify(value) : String(value)}`);
  const sources =
    Array.isArray(item.sources) && item.sources.length > 0 ? [`from ${item.sources.join(", ")}`] : [];
  return [subject, ...extra, ...sources].filter(Boolean).join("  ");
}

/** The crawl's progress on one terminal line: counts, pages per second, and the time left at that rate. */
class CrawlProgress {
  private readonly startedAt = Date.now();
  private readonly active: boolean;
  private drawn = false;

  constructor(private readonly stream: NodeJS.WriteStream) {
    this.active = Boolean(stream.isTTY);
  }

  draw(crawl: CrawlRow): void {
    if (!this.active) return;
    const done = crawl.analysed + crawl.failed;
    const seconds = (Date.now() - this.startedAt) / 1000;
    const rate = seconds > 0 ? done / seconds : 0;
    const budget = Math.min(crawl.max_pages, Math.max(crawl.discovered - crawl.excluded, done));
    const left = rate > 0 ? Math.round((budget - done) / rate) : null;
    const width = 24;
    const filled = budget > 0 ? Math.round((done / budget) * width) : 0;
    this.stream.write(
      `\r[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${done}/${budget} pages  ${crawl.failed} failed  ${rate.toFixed(1)}/s${left === null ? "" : `  ~${left}s left`}   `,
    );
    this.drawn = true;
  }

  finish(): void {
    if (this.drawn) this.stream.write("\n");
  }
}
