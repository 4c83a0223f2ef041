/**
 * The analysis engine's front door: collect → judge → score, producing the report object the API stores and
 * the command line prints. One Analyzer is meant to live as long as the process (it holds the probe cache,
 * a keep-alive connection pool for host probes and the analysis pool's processes). A page of at least
 * PAGEGRADE_THREAD_MIN_BYTES is parsed and judged on the analysis pool (pool/analysis-pool.ts),
 * a smaller one on the calling thread; the result is the same either way.
 */
import { ConfigError } from "../config.js";
import type { AnalysisMode } from "../vocabulary.js";
import type { AnalyzerOptions } from "./analyzer-options.js";
import type { Category } from "./checks/check.js";
import { PageCollector, type SessionFor } from "./collect.js";
import type { CrawledPage } from "./crawled-page.js";
import type { ExtractionRule } from "./extract/extraction-rules.js";
import type { ConnectionGuard } from "./fetch/connection-guard.js";
import type { SiteRequests } from "./fetch/site-requests.js";
import type { CheckResults } from "./judge.js";
import { AnalysisPool } from "./pool/analysis-pool.js";
import { InThreadSession } from "./pool/page-session.js";
import type { BrowserPool } from "./render/browser-pool.js";
import { type ChromiumStatus, chromiumStatus } from "./render/chromium-status.js";
import type { Screenshot } from "./render/rendered-page.js";
import type { Result, Summary } from "./score.js";
import {
  parseScoringOverrides,
  resolveScoring,
  type Scoring,
  type ScoringOverrides,
} from "./scoring-config.js";
import type { DocumentFacts, ResponseFacts } from "./snapshot.js";
import { normaliseSubmittedUrl, projectOf } from "./submitted-url.js";

export interface AnalysisReport {
  url: string;
  final_url: string;
  project: string;
  result: Result;
  score: number;
  summary: Summary;
  categories: Record<Category, number | null>;
  results: CheckResults;
  generated_at: string;
}

export interface AnalysisTimings {
  /** Network: fetching the page and waiting for the host probes. */
  fetchMs: number;
  /** CPU: decoding and parsing the document into the snapshot (on the analysis pool for a large page). */
  parseMs: number;
  /** CPU: running every check and scoring. */
  judgeMs: number;
}

export class Analyzer {
  readonly scoring: Scoring;
  private readonly collector: PageCollector;
  private readonly chromiumPath: string;
  private pool: BrowserPool | null = null;
  /** The analysis pool; null when PAGEGRADE_ANALYSIS_THREADS is 0 (every page on the calling thread). */
  readonly analysisPool: AnalysisPool | null;

  constructor(private readonly config: AnalyzerOptions) {
    this.scoring = resolveScoring(checkedOverrides(config.scoring));
    this.chromiumPath = config.chromiumPath;
    this.collector = new PageCollector(config);
    this.analysisPool =
      config.analysisProcesses > 0
        ? new AnalysisPool({
            processes: config.analysisProcesses,
            timeLimitMs: config.analysisTimeLimitMs,
            memoryLimitMb: config.analysisProcessMemoryMb,
            recycleMb: config.analysisProcessRecycleMb,
            scoring: this.scoring,
          })
        : null;
  }

  /**
   * Analyses a URL, raw (the HTML as served) or rendered (in Chromium); throws InvalidUrl for a malformed URL,
   * FetchFailure when the page cannot be fetched, and in rendered mode ChromiumUnavailable or RenderFailure.
   * A rendered analysis also returns the viewport's screenshot.
   */
  async analyse(
    rawUrl: string,
    options: {
      mode?: AnalysisMode;
      /** Raw mode: false stops at a redirect with FetchFailure `redirect` (its status and location). */
      followRedirects?: boolean;
      /** Whose page it is (a user): large pages wait for the analysis pool taking turns between owners. */
      owner?: string;
      /** A crawl's project: the result then carries what the crawl keeps of the page (`crawled`). */
      crawlProject?: string;
      /** With `crawlProject`: the crawl's extraction rules, run where the page is parsed (`crawled.extracted`). */
      extract?: ExtractionRule[];
      /** Parse on the calling thread and return the judged document (`document`), for tools that inspect it. */
      keepDocument?: boolean;
      /** A crawl's say over every request of the analysis: politeness and its headers (see site-requests.ts). */
      site?: SiteRequests;
    } = {},
  ): Promise<{
    report: AnalysisReport;
    timings: AnalysisTimings;
    screenshot: Screenshot | null;
    /** The page's response as fetched (status, headers, redirects). */
    response: ResponseFacts;
    /** What a crawl keeps of the page (facts, internal links), read with `crawlProject`; null without it. */
    crawled: CrawledPage | null;
    /** The document the checks judged, with `keepDocument`; null without it. */
    document: DocumentFacts | null;
  }> {
    const url = normaliseSubmittedUrl(rawUrl);
    const mode = options.mode ?? "raw";
    const kept = options.keepDocument ? new InThreadSession(this.scoring) : null;
    const extracting = options.crawlProject !== undefined && (options.extract ?? []).length > 0;
    const sessionFor: SessionFor = kept ? async () => kept : this.sessionFor(options.owner ?? "", extracting);
    const started = performance.now();
    const collected =
      mode === "rendered"
        ? await this.collector.collectRendered(url, await this.browserPool(), sessionFor, options.site)
        : {
            ...(await this.collector.collect(url, sessionFor, {
              followRedirects: options.followRedirects ?? true,
              site: options.site,
            })),
            screenshot: null,
          };
    const { facts, session, parseMs, screenshot } = collected;
    const collectedAt = performance.now();
    let judged: Awaited<ReturnType<typeof session.judge>>;
    const document = kept?.document ?? null;
    try {
      const crawl =
        options.crawlProject === undefined
          ? null
          : { project: options.crawlProject, extract: options.extract ?? [] };
      judged = await session.judge(facts, crawl);
    } finally {
      session.release();
    }
    const { results, scored, judgeMs } = judged;
    return {
      report: {
        url: url.href,
        final_url: facts.finalUrl,
        project: projectOf(facts.finalUrl),
        result: scored.result,
        score: scored.score,
        summary: scored.summary,
        categories: scored.categories,
        results,
        generated_at: new Date().toISOString(),
      },
      timings: { fetchMs: collectedAt - started - parseMs, parseMs, judgeMs },
      screenshot,
      response: facts.response,
      crawled: judged.crawled,
      document,
    };
  }

  /**
   * Where a page of that many bytes is parsed and judged: the analysis pool if it is large enough, or whatever
   * its size when a crawl's extraction rules run over it (their cost does not follow the page's size alone).
   */
  private sessionFor(owner: string, onPool = false): SessionFor {
    return async (bytes) =>
      this.analysisPool && (onPool || bytes >= this.config.analysisPoolMinBytes)
        ? this.analysisPool.session(owner)
        : new InThreadSession(this.scoring);
  }

  /**
   * The browser pool of rendered mode, made with the first rendered analysis (playwright-core is loaded only
   * then, so raw analyses and the command line do not pay for it).
   */
  private async browserPool(): Promise<BrowserPool> {
    const { BrowserPool } = await import("./render/browser-pool.js");
    this.pool ??= new BrowserPool(this.collector.guard, {
      executablePath: this.config.chromiumPath,
      sandbox: this.config.chromiumSandbox,
      maxConcurrent: this.config.maxConcurrentRenders,
      connectTimeoutMs: this.config.connectTimeoutMs,
    });
    return this.pool;
  }

  /**
   * The address guard and the settings an outbound connection outside an analysis (a webhook delivery) must
   * use: the same operator settings (private networks, allowed ranges, DNS servers, extra CAs) apply.
   */
  outbound(): { guard: ConnectionGuard; extraCaCertificates: string | null; userAgent: string } {
    return {
      guard: this.collector.guard,
      extraCaCertificates: this.config.extraCaCertificates,
      userAgent: this.config.userAgent,
    };
  }

  /** Whether rendered mode can run here: Chromium is where the configuration says and is not known to fail. */
  renderingAvailable(): boolean {
    return this.chromium.problem() === null;
  }

  /** Chromium's status here (shared with the PDFs of the same executable and sandbox setting). */
  get chromium(): ChromiumStatus {
    return chromiumStatus({ executablePath: this.chromiumPath, sandbox: this.config.chromiumSandbox });
  }

  async close(): Promise<void> {
    await this.analysisPool?.close();
    await this.pool?.close();
    await this.collector.close();
  }
}

/** The operator's scoring overrides, checked: a wrong key or value stops start-up with a message naming the file. */
function checkedOverrides(input: unknown): ScoringOverrides {
  try {
    return parseScoringOverrides(input);
  } catch (error) {
    throw new ConfigError(`PAGEGRADE_SCORING_FILE: ${(error as Error).message}`);
  }
}
