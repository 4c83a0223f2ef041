/**
 * The analysis engine's front door: collect → judge → score, producing the report object the API stores and
 * the command line prints. One Analyzer is meant to live as long as the process (it holds the probe cache
 * and a keep-alive connection pool for host probes).
 */
import type { AnalysisConfig } from "../config.js";
import type { Category } from "./checks/check.js";
import { checks } from "./checks/index.js";
import { PageCollector } from "./collect.js";
import { type CheckResults, judge } from "./judge.js";
import { isNotIndexable } from "./page-facts.js";
import { type Result, type Summary, score } from "./score.js";
import { resolveScoring, type Scoring } from "./scoring-config.js";
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

  constructor(config: AnalysisConfig) {
    this.scoring = resolveScoring(config.scoring);
    this.collector = new PageCollector(config);
  }

  /** Analyses a URL; throws InvalidUrl for a malformed URL and FetchFailure when the page cannot be fetched. */
  async analyse(rawUrl: string): Promise<{ report: AnalysisReport; timings: AnalysisTimings }> {
    const url = normaliseSubmittedUrl(rawUrl);
    const started = performance.now();
    const { snapshot, parseMs } = await this.collector.collect(url);
    const collected = performance.now();
    const results = judge(snapshot, checks, this.scoring.thresholds);
    const scored = score(results, this.scoring, isNotIndexable(snapshot));
    const judgeMs = performance.now() - collected;
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
      timings: { fetchMs: collected - started - parseMs, parseMs, judgeMs },
    };
  }

  async close(): Promise<void> {
    await this.collector.close();
  }
}
