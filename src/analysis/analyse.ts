/**
 * The analysis engine's front door: collect → judge → score, producing the report object the API stores and
 * the command line prints. One Analyzer is meant to live as long as the process (it holds the probe cache
 * and a keep-alive connection pool for host probes).
 */
import type { AnalysisConfig } from "../config.js";
import type { AnalysisMode } from "../store/schema.js";
import type { Category } from "./checks/check.js";
import { checks } from "./checks/index.js";
import { PageCollector } from "./collect.js";
import type { ConnectionGuard } from "./fetch/connection-guard.js";
import { type CheckResults, judge } from "./judge.js";
import { isNotIndexable } from "./page-facts.js";
import type { BrowserPool } from "./render/browser-pool.js";
import { type ChromiumStatus, chromiumStatus } from "./render/chromium-status.js";
import type { Screenshot } from "./render/rendered-page.js";
import { type Result, type Summary, score } from "./score.js";
import { resolveScoring, type Scoring } from "./scoring-config.js";
import type { PageSnapshot } from "./snapshot.js";
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
  /** CPU: decoding and parsing the document into the snapshot. */
  parseMs: number;
  /** CPU: running every check and scoring. */
  judgeMs: number;
}

export class Analyzer {
  readonly scoring: Scoring;
  private readonly collector: PageCollector;
  private readonly chromiumPath: string;
  private pool: BrowserPool | null = null;

  constructor(private readonly config: AnalysisConfig) {
    this.scoring = resolveScoring(config.scoring);
    this.chromiumPath = config.chromiumPath;
    this.collector = new PageCollector(config);
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
    } = {},
  ): Promise<{
    report: AnalysisReport;
    timings: AnalysisTimings;
    screenshot: Screenshot | null;
    /** Everything collected about the page (a crawl reads its links and signals from it). */
    snapshot: PageSnapshot;
  }> {
    const url = normaliseSubmittedUrl(rawUrl);
    const mode = options.mode ?? "raw";
    const started = performance.now();
    const collected =
      mode === "rendered"
        ? await this.collector.collectRendered(url, await this.browserPool())
        : {
            ...(await this.collector.collect(url, { followRedirects: options.followRedirects ?? true })),
            screenshot: null,
          };
    const { snapshot, parseMs, screenshot } = collected;
    const collectedAt = performance.now();
    const results = judge(snapshot, checks, this.scoring.thresholds);
    const scored = score(results, this.scoring, isNotIndexable(snapshot));
    const judgeMs = performance.now() - collectedAt;
    return {
      report: {
        url: url.href,
        final_url: snapshot.finalUrl,
        project: projectOf(snapshot.finalUrl),
        result: scored.result,
        score: scored.score,
        summary: scored.summary,
        categories: scored.categories,
        results,
        generated_at: new Date().toISOString(),
      },
      timings: { fetchMs: collectedAt - started - parseMs, parseMs, judgeMs },
      screenshot,
      snapshot,
    };
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
    await this.pool?.close();
    await this.collector.close();
  }
}
