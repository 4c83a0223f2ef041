/**
 * The CPU part of an analysis, the same code wherever it runs (on the event loop's thread for a small page, on
 * a thread of the analysis pool for a large one): decode and parse the served bytes (and, in rendered mode,
 * the rendered DOM), then judge the snapshot, score it and, for a crawl, read the page's crawl facts
 * from it and run its extraction rules over the judged document.
 * Everything going in and out is plain data, so it crosses a thread boundary as it is.
 */

import { decodeDocument } from "./charset.js";
import { checks } from "./checks/index.js";
import { type CrawlAsk, type CrawledPage, crawledPageOf } from "./crawled-page.js";
import { extractValues } from "./extract/extract-values.js";
import type { Parse5Node } from "./extract/parse5-adapter.js";
import { type CheckResults, judge } from "./judge.js";
import { isNotIndexable } from "./page-facts.js";
import { parseDocumentTree } from "./parse.js";
import { type Scored, score } from "./score.js";
import type { Scoring } from "./scoring-config.js";
import type { CharsetFacts, DocumentFacts, PageSnapshot, RenderedFactsSnapshot } from "./snapshot.js";

export interface ParseInput {
  /** The document's bytes as served (decoded from any content coding). */
  body: Uint8Array;
  contentType: string | undefined;
  finalUrl: string;
  /** Rendered mode: the DOM Chromium rendered, as HTML; null in raw mode. */
  renderedHtml: string | null;
}

export interface ParsedPage {
  charset: CharsetFacts;
  /** The document the checks judge: the served one in raw mode, the rendered one in rendered mode. */
  document: DocumentFacts;
  /** Rendered mode: the document as served; null in raw mode. */
  rawDocument: DocumentFacts | null;
  /** The judged document's HTML and parse tree, for a crawl's extraction rules; never leaves the thread. */
  source: { html: string; root: Parse5Node };
}

/** The snapshot's facts that come from I/O (the main thread's part): everything but the parse. */
export type CollectedFacts = Omit<PageSnapshot, "charset" | "document" | "rendered"> & {
  rendered?: Omit<RenderedFactsSnapshot, "rawDocument">;
};

export interface Judged {
  results: CheckResults;
  scored: Scored;
  /** What a crawl stores of the page; null unless asked for. */
  crawled: CrawledPage | null;
  /** CPU time of judging and scoring (and of the crawl facts). */
  judgeMs: number;
}

export function parsePage(input: ParseInput): { parsed: ParsedPage; parseMs: number } {
  const started = performance.now();
  const body = Buffer.from(input.body.buffer, input.body.byteOffset, input.body.byteLength);
  const served = decodeDocument(body, input.contentType);
  const servedDocument = parseDocumentTree(served.html, input.finalUrl);
  let parsed: ParsedPage;
  if (input.renderedHtml === null) {
    parsed = {
      charset: served.charset,
      document: servedDocument.facts,
      rawDocument: null,
      source: { html: served.html, root: servedDocument.root },
    };
  } else {
    const rendered = parseDocumentTree(input.renderedHtml, input.finalUrl);
    parsed = {
      charset: served.charset,
      document: rendered.facts,
      rawDocument: servedDocument.facts,
      source: { html: input.renderedHtml, root: rendered.root },
    };
  }
  return { parsed, parseMs: performance.now() - started };
}

/** Whether the document names an icon (then the host probes skip /favicon.ico). */
export function declaresIcon(document: DocumentFacts): boolean {
  return document.links.some((link) => link.rel.includes("icon") || link.rel.includes("apple-touch-icon"));
}

export function snapshotOf(parsed: ParsedPage, facts: CollectedFacts): PageSnapshot {
  const { rendered, ...rest } = facts;
  const snapshot: PageSnapshot = { ...rest, charset: parsed.charset, document: parsed.document };
  if (rendered && parsed.rawDocument) snapshot.rendered = { ...rendered, rawDocument: parsed.rawDocument };
  return snapshot;
}

export function judgePage(
  parsed: ParsedPage,
  facts: CollectedFacts,
  scoring: Scoring,
  crawl: CrawlAsk | null,
): Judged {
  const started = performance.now();
  const snapshot = snapshotOf(parsed, facts);
  const results = judge(snapshot, checks, scoring.thresholds);
  const scored = score(results, scoring, isNotIndexable(snapshot));
  const crawled =
    crawl === null
      ? null
      : crawledPageOf(snapshot, crawl.project, extractValues(crawl.extract, parsed.source));
  return { results, scored, crawled, judgeMs: performance.now() - started };
}
