/**
 * The queries that compare two crawls, each answered by the database over its indexes (findings by check and
 * fingerprint, pages by crawl and URL) so that neither crawl is ever read whole: findings of one crawl absent
 * from the other (counted by check, and the first of them), pages found by one crawl only, pages whose status
 * or indexability changed, the pages analysed by both with their check statuses, a batch at a time, and the
 * reports of the pages a diff names (for the comparison page's links); and a crawl's every finding and page
 * statuses, which the command line's site gate saves and compares.
 */
import { type Kysely, sql } from "kysely";
import { catalogue } from "../analysis/catalogue.js";
import type { CheckResults } from "../analysis/judge.js";
import { unpackResults } from "../store/analysis-document.js";
import { inWorkspace, workspaceOf } from "../store/owned-rows.js";
import type { Database } from "../store/schema.js";
import type { Store } from "../store/store.js";
import type { CrawlRow } from "./crawl-store.js";
import { namedPageChecks } from "./page-check-code-store.js";
import { crawlPageRequestId } from "./page-reports.js";

/** A page analysed by both crawls: its failed and warned checks on each side (JSON objects, check → status). */
export interface ComparedPage {
  url: string;
  before: string;
  after: string;
}

export class CrawlDiffStore {
  private readonly db: Kysely<Database>;

  constructor(store: Store) {
    this.db = store.db;
  }

  /** The workspace's latest complete crawl of the project that finished before `crawl`, or undefined. */
  previousComplete(crawl: CrawlRow): Promise<CrawlRow | undefined> {
    return this.db
      .selectFrom("crawls")
      .selectAll()
      .where(inWorkspace(workspaceOf(crawl)))
      .where("project", "=", crawl.project)
      .where("status", "=", "complete")
      .where("id", "<>", crawl.id)
      .where("finished_at", "<", crawl.finished_at ?? "")
      .orderBy("finished_at", "desc")
      .orderBy("id", "desc")
      .limit(1)
      .executeTakeFirst();
  }

  /** The importance and finding count of each check that found something in the crawl. */
  issueCounts(crawlId: number): Promise<Array<{ check_id: string; importance: string; count: number }>> {
    return this.db
      .selectFrom("crawl_issues")
      .select(["check_id", "importance", "count"])
      .where("crawl_id", "=", crawlId)
      .execute();
  }

  /**
   * The findings of crawl `only` with no finding of the same fingerprint in crawl `other`, by check then in the
   * check's order, `batch` at a time (each batch read after the previous one is handled).
   */
  async *findingsOnlyInBatches(
    only: number,
    other: number,
    batch = 2000,
  ): AsyncGenerator<Array<{ check_id: string; item: string }>> {
    let after: { check: string; position: number } | null = null;
    for (;;) {
      let query = this.findingsAbsentFrom(only, other)
        .select(["mine.check_id", "mine.position", "mine.item"])
        .orderBy("mine.check_id")
        .orderBy("mine.position")
        .limit(batch);
      if (after !== null) {
        const { check, position } = after;
        query = query.where((eb) =>
          eb.or([
            eb("mine.check_id", ">", check),
            eb.and([eb("mine.check_id", "=", check), eb("mine.position", ">", position)]),
          ]),
        );
      }
      const rows = await query.execute();
      if (rows.length === 0) return;
      yield rows.map((row) => ({ check_id: row.check_id, item: row.item }));
      if (rows.length < batch) return;
      const last = rows[rows.length - 1] as (typeof rows)[number];
      after = { check: last.check_id, position: last.position };
    }
  }

  /**
   * Which of these URLs the crawl came upon at all (`known`: any state, excluded or not) and which it reached
   * (fetched, or tried to and failed: not excluded, not left queued).
   */
  async seen(crawlId: number, urls: Iterable<string>): Promise<{ reached: Set<string>; known: Set<string> }> {
    const reached = new Set<string>();
    const known = new Set<string>();
    const distinct = [...new Set(urls)];
    for (let start = 0; start < distinct.length; start += 500) {
      const rows = await this.db
        .selectFrom("crawl_pages")
        .select(["url", "state", "excluded"])
        .where("crawl_id", "=", crawlId)
        .where("url", "in", distinct.slice(start, start + 500))
        .execute();
      for (const row of rows) {
        known.add(row.url);
        if (row.excluded === null && (row.state === "done" || row.state === "failed")) reached.add(row.url);
      }
    }
    return { reached, known };
  }

  private findingsAbsentFrom(only: number, other: number) {
    return this.db
      .selectFrom("crawl_findings as mine")
      .where("mine.crawl_id", "=", only)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom("crawl_findings as theirs")
              .select(sql`1`.as("one"))
              .where("theirs.crawl_id", "=", other)
              .whereRef("theirs.check_id", "=", "mine.check_id")
              .whereRef("theirs.fingerprint", "=", "mine.fingerprint"),
          ),
        ),
      );
  }

  /**
   * Pages crawl `only` fetched (or tried to) that crawl `other` never came upon at all: how many, and the first
   * by URL. A URL the other crawl knew of but left out (at its `max_pages`, by robots.txt, by a pattern) is not
   * one of them: that is what it could see, not a page added or removed.
   */
  async pagesOnlyIn(only: number, other: number, limit: number): Promise<{ urls: string[]; count: number }> {
    const base = this.db
      .selectFrom("crawl_pages as mine")
      .where("mine.crawl_id", "=", only)
      .where("mine.excluded", "is", null)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom("crawl_pages as theirs")
              .select(sql`1`.as("one"))
              .where("theirs.crawl_id", "=", other)
              .whereRef("theirs.url", "=", "mine.url"),
          ),
        ),
      );
    const [rows, counted] = await Promise.all([
      base.select("mine.url").orderBy("mine.url").limit(limit).execute(),
      base.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
    ]);
    return { urls: rows.map((row) => row.url), count: Number(counted.n) };
  }

  /** Pages both crawls fetched whose status code (or failure) differs: how many, and the first by URL. */
  async statusChanges(
    from: number,
    to: number,
    limit: number,
  ): Promise<{ rows: Array<{ url: string; from: number | null; to: number | null }>; count: number }> {
    const base = this.bothFetched(from, to).where(
      sql<boolean>`coalesce(before.status_code, -1) <> coalesce(after.status_code, -1)`,
    );
    const [rows, counted] = await Promise.all([
      base
        .select(["after.url", "before.status_code as from", "after.status_code as to"])
        .orderBy("after.url")
        .limit(limit)
        .execute(),
      base.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
    ]);
    return { rows, count: Number(counted.n) };
  }

  /** Pages both crawls fetched that became indexable or stopped being so: how many, and the first by URL. */
  async indexabilityChanges(
    from: number,
    to: number,
    limit: number,
  ): Promise<{ rows: Array<{ url: string; from: boolean; to: boolean }>; count: number }> {
    const base = this.bothFetched(from, to).whereRef("before.indexable", "<>", "after.indexable");
    const [rows, counted] = await Promise.all([
      base
        .select(["after.url", "before.indexable as from", "after.indexable as to"])
        .orderBy("after.url")
        .limit(limit)
        .execute(),
      base.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
    ]);
    return {
      rows: rows.map((row) => ({ url: row.url, from: row.from === 1, to: row.to === 1 })),
      count: Number(counted.n),
    };
  }

  private bothFetched(from: number, to: number) {
    return this.db
      .selectFrom("crawl_pages as after")
      .innerJoin("crawl_pages as before", (join) =>
        join.onRef("before.url", "=", "after.url").on("before.crawl_id", "=", from),
      )
      .where("after.crawl_id", "=", to)
      .where("after.excluded", "is", null)
      .where("before.excluded", "is", null);
  }

  /**
   * The pages both crawls analysed, in URL order, `batch` at a time (each batch read after the previous one is
   * handled), so however large the crawls only one batch is held. A page's statuses are its rows in
   * `crawl_page_checks` (read for the batch's pages over the (crawl, page) index); a crawl analysed before those
   * were recorded has none to compare (`checks_recorded` 0), so nothing is yielded.
   */
  async *comparedPages(from: number, to: number, batch = 2000): AsyncGenerator<ComparedPage[]> {
    const recorded = await this.db
      .selectFrom("crawls")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("id", "in", [from, to])
      .where("checks_recorded", "=", 1)
      .executeTakeFirstOrThrow();
    if (Number(recorded.n) < (from === to ? 1 : 2)) return;
    let after = "";
    for (;;) {
      const rows = await this.db
        .selectFrom("crawl_pages as after")
        .innerJoin("crawl_pages as before", (join) =>
          join.onRef("before.url", "=", "after.url").on("before.crawl_id", "=", from),
        )
        .select(["after.url", "before.id as before_id", "after.id as after_id"])
        .where("after.crawl_id", "=", to)
        .where("after.url", ">", after)
        .where("after.result", "is not", null)
        .where("before.result", "is not", null)
        .orderBy("after.url")
        .limit(batch)
        .execute();
      if (rows.length === 0) return;
      const [before, later] = await Promise.all([
        this.statusesOf(
          from,
          rows.map((row) => row.before_id),
        ),
        this.statusesOf(
          to,
          rows.map((row) => row.after_id),
        ),
      ]);
      // A check failed or warned on one side only: whether it passed on the other or was na, info or error there
      // (a change, not a regression or a fix) is read from that side's analysis of the page.
      const unsure = { before: new Map<number, Set<string>>(), after: new Map<number, Set<string>>() };
      for (const row of rows) {
        const was = before.get(row.before_id) ?? {};
        const now = later.get(row.after_id) ?? {};
        for (const check of Object.keys(now)) if (!(check in was)) addTo(unsure.before, row.before_id, check);
        for (const check of Object.keys(was)) if (!(check in now)) addTo(unsure.after, row.after_id, check);
      }
      const [beforeOthers, afterOthers] = await Promise.all([
        this.otherStatuses(from, unsure.before),
        this.otherStatuses(to, unsure.after),
      ]);
      yield rows.map((row) => ({
        url: row.url,
        before: JSON.stringify({ ...before.get(row.before_id), ...beforeOthers.get(row.before_id) }),
        after: JSON.stringify({ ...later.get(row.after_id), ...afterOthers.get(row.after_id) }),
      }));
      if (rows.length < batch) return;
      after = (rows[rows.length - 1] as (typeof rows)[number]).url;
    }
  }

  /** The failed and warned checks of these pages of the crawl, by page (check id → status, in catalogue order). */
  private async statusesOf(crawlId: number, pageIds: number[]): Promise<Map<number, Record<string, string>>> {
    const byPage = new Map<number, Record<string, string>>();
    for (let start = 0; start < pageIds.length; start += 1000) {
      const rows = await namedPageChecks(this.db, crawlId, pageIds.slice(start, start + 1000));
      for (const row of rows.sort(inCatalogueOrder)) {
        const statuses = byPage.get(row.page_id) ?? {};
        statuses[row.check_id] = row.status;
        byPage.set(row.page_id, statuses);
      }
    }
    return byPage;
  }

  /**
   * The statuses other than `pass` of the given checks of these pages, read from the analysis the crawl made of
   * each page (its request id, a unique index): the `na`, `info` and `error` that `crawl_page_checks` does not
   * record. A page whose analysis is gone (its report deleted, or past the history limit) counts as passing.
   */
  private async otherStatuses(
    crawlId: number,
    wanted: Map<number, Set<string>>,
  ): Promise<Map<number, Record<string, string>>> {
    const byPage = new Map<number, Record<string, string>>();
    const pageIds = [...wanted.keys()];
    for (let start = 0; start < pageIds.length; start += 500) {
      const requestIds = pageIds.slice(start, start + 500).map((id) => crawlPageRequestId(crawlId, id));
      const rows = await this.db
        .selectFrom("analyses")
        .select(["request_id", "results"])
        .where("request_id", "in", requestIds)
        .execute();
      for (const row of rows) {
        if (row.results === null || row.request_id === null) continue;
        const pageId = Number(row.request_id.slice(row.request_id.lastIndexOf(":") + 1));
        const results = JSON.parse(unpackResults(row.results).toString("utf8")) as CheckResults;
        const statuses: Record<string, string> = {};
        for (const check of wanted.get(pageId) ?? []) {
          const status = results[check]?.status;
          if (status !== undefined && status !== "pass") statuses[check] = status;
        }
        byPage.set(pageId, statuses);
      }
    }
    return byPage;
  }

  /** The report of each of these URLs in either crawl (the first crawl's where both have one). */
  async reportIds(crawlIds: number[], urls: string[]): Promise<Map<string, number>> {
    const reports = new Map<string, number>();
    const distinct = [...new Set(urls)];
    for (let start = 0; start < distinct.length; start += 500) {
      const rows = await this.db
        .selectFrom("crawl_pages")
        .select(["crawl_id", "url", "report_id"])
        .where("crawl_id", "in", crawlIds)
        .where("url", "in", distinct.slice(start, start + 500))
        .where("report_id", "is not", null)
        .execute();
      for (const crawlId of crawlIds) {
        for (const row of rows) {
          if (row.crawl_id === crawlId && !reports.has(row.url))
            reports.set(row.url, row.report_id as number);
        }
      }
    }
    return reports;
  }

  /**
   * Every URL the crawl came upon, in URL order: those it reached (fetched, or tried to and failed) and those it
   * left out (excluded, or never fetched).
   */
  async urlsSeen(crawlId: number): Promise<{ reached: string[]; left_out: string[] }> {
    const rows = await this.db
      .selectFrom("crawl_pages")
      .select(["url", "state", "excluded"])
      .where("crawl_id", "=", crawlId)
      .orderBy("url")
      .execute();
    const reached: string[] = [];
    const leftOut: string[] = [];
    for (const row of rows) {
      if (row.excluded === null && (row.state === "done" || row.state === "failed")) reached.push(row.url);
      else leftOut.push(row.url);
    }
    return { reached, left_out: leftOut };
  }

  /** Every finding of the crawl, by check then in the check's order. */
  findings(crawlId: number): Promise<Array<{ check_id: string; item: string }>> {
    return this.db
      .selectFrom("crawl_findings")
      .select(["check_id", "item"])
      .where("crawl_id", "=", crawlId)
      .orderBy("check_id")
      .orderBy("position")
      .execute();
  }

  /**
   * Every analysed page of the crawl with its check statuses other than `pass` (a JSON object, check id → status,
   * in catalogue order), in URL order: the failed and warned ones its `crawl_page_checks` rows record, and the
   * `na`, `info` and `error` read from its analysis (so that a baseline tells a check that passed from one that
   * did not apply), a batch of pages at a time.
   */
  async pageStatuses(crawlId: number): Promise<Array<{ url: string; check_statuses: string }>> {
    const [pages, checks] = await Promise.all([
      this.db
        .selectFrom("crawl_pages")
        .select(["id", "url"])
        .where("crawl_id", "=", crawlId)
        .where("result", "is not", null)
        .orderBy("url")
        .execute(),
      namedPageChecks(this.db, crawlId),
    ]);
    const byPage = new Map<number, Record<string, string>>();
    for (const row of checks) {
      const statuses = byPage.get(row.page_id) ?? {};
      statuses[row.check_id] = row.status;
      byPage.set(row.page_id, statuses);
    }
    const everyCheck = new Set(catalogue.map((entry) => entry.id));
    const others = await this.otherStatuses(crawlId, new Map(pages.map((page) => [page.id, everyCheck])));
    return pages.map((page) => ({
      url: page.url,
      check_statuses: JSON.stringify(inCatalogueOrderOf({ ...others.get(page.id), ...byPage.get(page.id) })),
    }));
  }
}

/** Each page check's place in the catalogue (the order a page's results list them). */
const cataloguePlace = new Map(catalogue.map((entry, index) => [entry.id, index]));

function inCatalogueOrder(a: { check_id: string }, b: { check_id: string }): number {
  return (
    (cataloguePlace.get(a.check_id) ?? catalogue.length) -
    (cataloguePlace.get(b.check_id) ?? catalogue.length)
  );
}

/** The same statuses, their checks in catalogue order. */
function inCatalogueOrderOf(statuses: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(statuses).sort(
      ([a], [b]) => (cataloguePlace.get(a) ?? catalogue.length) - (cataloguePlace.get(b) ?? catalogue.length),
    ),
  );
}

function addTo(map: Map<number, Set<string>>, pageId: number, check: string): void {
  const checks = map.get(pageId) ?? new Set<string>();
  checks.add(check);
  map.set(pageId, checks);
}
