/**
 * A page's session: where its document is parsed, held while the host probes finish, and judged. The
 * in-thread session does the work on the calling thread (small pages, or no analysis processes configured);
 * the analysis pool's sessions (analysis-pool.ts) do it in a child process.
 */
import type { CrawlAsk } from "../crawled-page.js";
import {
  type CollectedFacts,
  declaresIcon,
  type Judged,
  judgePage,
  type ParsedPage,
  type ParseInput,
  parsePage,
} from "../page-work.js";
import type { Scoring } from "../scoring-config.js";
import type { DocumentFacts } from "../snapshot.js";

export interface PageSession {
  /**
   * Decodes and parses the page; the session keeps the parse for `judge`. The body is the session's from then
   * on (the caller must not change it).
   */
  parse(input: ParseInput): Promise<{ declaresIcon: boolean; parseMs: number }>;
  /** Judges and scores the parsed page with the I/O facts (and, for a crawl, reads its crawl facts and runs its extraction rules). */
  judge(facts: CollectedFacts, crawl: CrawlAsk | null): Promise<Judged>;
  /** Ends the session, dropping its parse and freeing its process; safe to call more than once. */
  release(): void;
}

export class InThreadSession implements PageSession {
  private parsed: ParsedPage | null = null;

  constructor(private readonly scoring: Scoring) {}

  /** The parsed document the checks judge, once parsed (until released). */
  get document(): DocumentFacts | null {
    return this.parsed?.document ?? null;
  }

  async parse(input: ParseInput): Promise<{ declaresIcon: boolean; parseMs: number }> {
    const { parsed, parseMs } = parsePage(input);
    this.parsed = parsed;
    return { declaresIcon: declaresIcon(parsed.document), parseMs };
  }

  async judge(facts: CollectedFacts, crawl: CrawlAsk | null): Promise<Judged> {
    if (!this.parsed) throw new Error("The page was not parsed.");
    return judgePage(this.parsed, facts, this.scoring, crawl);
  }

  release(): void {
    this.parsed = null;
  }
}
