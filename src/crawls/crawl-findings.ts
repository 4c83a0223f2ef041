/**
 * A crawl's findings read for people who act on them, shared by the API and the pages: the page checks rolled up
 * (`check-rollup.ts`) with their URL patterns and affected pages, the internal links with their targets'
 * status, and the exports of each as CSV chunks made while the database is read (`csv.ts`), never whole.
 */

import { type CheckRollupWithTemplates, rollupOf } from "./check-rollup.js";
import type { CheckPageRow, CheckRollupStore } from "./check-rollup-store.js";
import type { CrawlLinkStore, LinkFilter, LinkRow } from "./crawl-link-store.js";
import type { CrawlListings } from "./crawl-listing-store.js";
import type { CrawlIssueRow } from "./crawl-store.js";
import { csvChunks } from "./csv.js";
import { findingUrls } from "./finding-url-lists.js";
import {
  checkPageCsvRow,
  issueItemCsvColumns,
  issueItemCsvRow,
  linkFindingTarget,
  linkObject,
} from "./findings-present.js";
import { type Fix, findingPages, pageCheckFix, ranked, siteIssueFix } from "./fix-first.js";
import { crawlPageCsvHeader, crawlPageCsvRow } from "./present.js";

/** A roll-up row as the pages show it. */
export type CrawlRollupRow = CheckRollupWithTemplates;

export class CrawlFindings {
  constructor(
    private readonly rollups: CheckRollupStore,
    private readonly links: CrawlLinkStore,
    private readonly listings: CrawlListings,
  ) {}

  /** A page of the roll-up (by priority, then check id), each check with its most common URL patterns. */
  async checks(
    crawlId: number,
    page: { limit: number; offset: number },
  ): Promise<{ rows: CheckRollupWithTemplates[]; total: number }> {
    const all = rollupOf(await this.rollups.counts(crawlId));
    const shown = all.slice(page.offset, page.offset + page.limit);
    const templates = await this.rollups.templates(
      crawlId,
      shown.map((row) => row.check),
    );
    return {
      rows: shown.map((row) => ({ ...row, templates: templates.get(row.check) ?? [] })),
      total: all.length,
    };
  }

  /**
   * The whole URL list of one site finding (a group's pages, a redirect chain's URLs: finding-url-lists.ts), or
   * null when the crawl has no such finding or it is about one URL. A crawl finished before findings were stored
   * (migration 020): the items its issue lists.
   */
  async findingUrlList(crawlId: number, check: string, fingerprint: string): Promise<string[] | null> {
    const stored = await this.listings.finding(crawlId, check, fingerprint);
    if (stored !== null) return findingUrls(JSON.parse(stored) as Record<string, unknown>);
    const issue = (await this.listings.issues(crawlId)).find((row) => row.check_id === check);
    const items = issue ? (JSON.parse(issue.items) as Array<Record<string, unknown>>) : [];
    const item = items.find((listed) => listed.fingerprint === fingerprint);
    return item ? findingUrls(item) : null;
  }

  /**
   * Every page check and site issue of the crawl in one ranking (fix-first.ts), best first: the roll-up with its
   * URL patterns, and each issue's distinct pages read from its findings a batch at a time (a crawl finished
   * before findings were stored: the items its issue lists).
   */
  async fixFirst(crawlId: number): Promise<Fix[]> {
    const [counts, issues] = await Promise.all([this.rollups.counts(crawlId), this.listings.issues(crawlId)]);
    const rollup = rollupOf(counts);
    const templates = await this.rollups.templates(
      crawlId,
      rollup.map((row) => row.check),
    );
    const fixes = rollup.map((row) => pageCheckFix({ ...row, templates: templates.get(row.check) ?? [] }));
    for (const issue of issues) {
      const pages = new Set<string>();
      let stored = 0;
      for await (const batch of this.listings.findingBatches(crawlId, issue.check_id)) {
        stored += batch.length;
        for (const item of batch) for (const url of findingPages(JSON.parse(item))) pages.add(url);
      }
      if (stored === 0)
        for (const item of JSON.parse(issue.items) as Array<Record<string, unknown>>)
          for (const url of findingPages(item)) pages.add(url);
      fixes.push(
        siteIssueFix({ check: issue.check_id, title: issue.title, importance: issue.importance }, pages),
      );
    }
    return ranked(fixes);
  }

  /** The roll-up as CSV: `check,category,importance,fail,warn,pages,priority,templates` (`/blog/*:110 …`). */
  checksCsv(rows: CheckRollupWithTemplates[]): AsyncIterable<string> {
    const columns = ["check", "category", "importance", "fail", "warn", "pages", "priority", "templates"];
    async function* batches(): AsyncGenerator<unknown[][]> {
      yield rows.map((row) => [
        row.check,
        row.category,
        row.importance,
        row.fail,
        row.warn,
        row.pages,
        row.priority,
        row.templates.map((template) => `${template.pattern}:${template.pages}`).join(" "),
      ]);
    }
    return csvChunks(columns, batches());
  }

  /**
   * A page of the pages where the check failed or warned, and how many there are in all: in the order the crawl
   * found them (the API's documented order), or with `failuresFirst` every failure before the warnings, each in
   * that order (the web page's): the failures' count says where the warnings start, so a page of the list reads
   * from one status or runs on from the failures into the warnings.
   */
  async checkPages(
    crawlId: number,
    check: string,
    page: { limit: number; offset: number },
    { failuresFirst = false }: { failuresFirst?: boolean } = {},
  ): Promise<{ rows: CheckPageRow[]; total: number }> {
    const counts = (await this.rollups.counts(crawlId)).find((row) => row.check_id === check);
    if (!counts) return { rows: [], total: 0 };
    const total = counts.fail + counts.warn;
    if (!failuresFirst) return { rows: await this.rollups.pages(crawlId, check, page), total };
    const failures = counts.fail;
    const rows =
      page.offset < failures
        ? await this.rollups.pages(crawlId, check, page, "fail")
        : ([] as CheckPageRow[]);
    const room = page.limit - rows.length;
    if (room > 0 && counts.warn > 0) {
      const warnOffset = Math.max(0, page.offset - failures);
      rows.push(...(await this.rollups.pages(crawlId, check, { limit: room, offset: warnOffset }, "warn")));
    }
    return { rows, total };
  }

  /** The affected pages of a check as CSV: `url,status,message,evidence`. */
  checkPagesCsv(crawlId: number, check: string): AsyncIterable<string> {
    return csvChunks(
      ["url", "status", "message", "evidence"],
      mapped(this.rollups.batches(crawlId, check), checkPageCsvRow),
    );
  }

  async linkList(
    crawlId: number,
    filter: LinkFilter,
    page: { limit: number; offset: number },
  ): Promise<{ rows: LinkRow[]; total: number }> {
    const [rows, total] = await Promise.all([
      this.links.list(crawlId, filter, page),
      this.links.count(crawlId, filter),
    ]);
    return { rows, total };
  }

  /** The first links in (source, target) order, without counting them all (the overview has the count). */
  firstLinks(crawlId: number, limit: number): Promise<LinkRow[]> {
    return this.links.list(crawlId, {}, { limit, offset: 0 });
  }

  /** Every link the filter keeps, as CSV: the link object's columns. */
  linksCsv(crawlId: number, filter: LinkFilter): AsyncIterable<string> {
    const columns = ["source", "target", "anchor", "nofollow", "target_status"] as const;
    return csvChunks(
      columns,
      mapped(this.links.batches(crawlId, filter), (row) => {
        const link = linkObject(row);
        return columns.map((column) => link[column]);
      }),
    );
  }

  /** Every page of the crawl as CSV: the crawl_page object's columns. */
  pagesCsv(crawlId: number, extractionNames: string[] = []): AsyncIterable<string> {
    return csvChunks(
      crawlPageCsvHeader(extractionNames),
      mapped(this.listings.pageBatches(crawlId), (row) => crawlPageCsvRow(row, extractionNames)),
    );
  }

  /**
   * The site issues as CSV, one row per finding, in the issues' order: every finding of each check (read from
   * `crawl_findings` a batch at a time, not only the items its issue lists), with every page linking to a link
   * finding's URL (read from the recorded links, not the five the item lists). A crawl finished before those
   * findings were stored (migration 020) has none there: its export lists the items stored with each issue.
   */
  issuesCsv(crawlId: number): AsyncIterable<string> {
    const { listings, links } = this;
    async function rows(issue: CrawlIssueRow, items: Array<Record<string, unknown>>): Promise<unknown[][]> {
      const targets = items.flatMap((item) => linkFindingTarget(item) ?? []);
      const sources =
        targets.length === 0
          ? new Map<string, string[]>()
          : await links.sourcesOfEach(crawlId, targets, issue.check_id === "nofollow-internal-links");
      return items.map((item) => {
        const url = linkFindingTarget(item);
        return issueItemCsvRow(issue, item, url === null ? [] : (sources.get(url) ?? []));
      });
    }
    async function* batches(): AsyncGenerator<unknown[][]> {
      for (const issue of await listings.issues(crawlId)) {
        let stored = 0;
        for await (const batch of listings.findingBatches(crawlId, issue.check_id)) {
          stored += batch.length;
          yield await rows(
            issue,
            batch.map((item) => JSON.parse(item) as Record<string, unknown>),
          );
        }
        if (stored === 0) yield await rows(issue, JSON.parse(issue.items) as Array<Record<string, unknown>>);
      }
    }
    return csvChunks(issueItemCsvColumns, batches());
  }
}

async function* mapped<T>(
  batches: AsyncIterable<T[]>,
  row: (item: T) => unknown[],
): AsyncGenerator<unknown[][]> {
  for await (const batch of batches) yield batch.map(row);
}
