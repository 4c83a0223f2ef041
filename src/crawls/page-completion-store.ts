/**
 * The completion of a claimed page that was analysed: its report, links, page checks and the URLs it adds
 * (admitted within the crawl's bounds by `frontier-admission-store.ts`), stored in one transaction, and the page
 * marked done. On PostgreSQL one statement when its report is new (`completeInOneStatement`) beside the
 * transaction that writes the same; on SQLite, a savepoint of a commit shared with the pages analysed at about
 * the same time.
 */
import { type Expression, type Kysely, type QueryCreator, type RawBuilder, sql } from "kysely";
import { flushingLater } from "../store/flushes-later.js";
import type { NewReportTables } from "../store/new-report-statement.js";
import type { Database } from "../store/schema.js";
import { StatisticsUpkeep } from "../store/statistics-upkeep.js";
import type { Dialect, Store } from "../store/store.js";
import { type BatchingOptions, TransactionBatcher } from "../store/transaction-batcher.js";
import type { CrawlBounds } from "./crawl-bounds.js";
import type { CrawlPageRow } from "./crawl-store.js";
import {
  type FrontierAdmission,
  type FrontierEntry,
  frontierRows,
  frontierUpsert,
  mergedByUrl,
  type PageLink,
} from "./frontier-admission-store.js";
import { insertPageRow, PageCheckCodes, packChecks, pageCheckRow } from "./page-check-code-store.js";
import { type PageCheck, urlTemplate } from "./page-checks.js";

/**
 * A page no longer claimed (settled, handed back, excluded): its part and lease are cleared as it is written, so
 * a done page's row does not keep 30 bytes of lease for the rest of the crawl's life.
 */
export const claimReleased = { claimed_by: null, lease_until: null } as const;

/** What became of a claimed page: the facts its row records. */
export type PageFacts = Partial<
  Omit<CrawlPageRow, "id" | "crawl_id" | "url" | "depth" | "in_sitemap" | "inlinks" | "attempts">
>;

/**
 * How analysed pages are committed on SQLite: together, up to 32 at once, the first waiting at most 100 ms for
 * others. A part does not wait for its page's commit before it claims and fetches its next page (see the
 * crawler), so the wait costs a crawl nothing but the lag of its counts.
 */
const pageBatching: BatchingOptions = { windowMs: 100, maxWrites: 32 };

export class PageCompletions {
  private readonly db: Kysely<Database>;

  private readonly dialect: Dialect;

  /** SQLite: analysed pages are committed together (see transaction-batcher.ts); absent on PostgreSQL. */
  private readonly pageCommits: TransactionBatcher | undefined;
  /** The page checks' codes this store has read (crawl_page_checks stores a check by its code). */
  private readonly checkCodes = new PageCheckCodes();
  /** How many of the pages waiting for that commit add URLs with a known depth. */
  private waitingPagesAddingDepths = 0;
  /**
   * PostgreSQL: the tables' statistics kept up while pages are stored faster than autovacuum analyses them
   * (statistics-upkeep.ts); a failed upkeep is tried again a thousand pages later, so its error is dropped.
   */
  private readonly statistics: StatisticsUpkeep | undefined;

  constructor(
    store: Store,
    private readonly admission: FrontierAdmission,
  ) {
    this.db = store.db;
    this.dialect = store.dialect;
    this.pageCommits =
      store.dialect === "sqlite" ? new TransactionBatcher(store.db, pageBatching) : undefined;
    this.statistics = store.dialect === "postgres" ? new StatisticsUpkeep(store.db) : undefined;
  }

  /**
   * One analysed page, in one transaction: its report (stored by `storeReport` inside the transaction), the
   * internal links it has (replacing any recorded for it before), the URLs it adds to the frontier, and its facts
   * with state `done`. A part cut off before the commit leaves nothing of the page, so it is redone; after it,
   * the page is done, never analysed again. On PostgreSQL the pages of a crawl commit side by side (the owner's
   * row no longer orders them, see migration 017), so two of them may deadlock over URLs they both discover:
   * the one PostgreSQL ends is written again (`writtenAgainOnDeadlock`). On SQLite the transaction is shared with the
   * pages analysed at about the same time (`pageBatching`), each page in a savepoint of its own; the promise
   * settles once the page is committed. On PostgreSQL a page whose analysis makes a new report (`newReport`) is
   * written by one statement instead (`completeInOneStatement`), which is atomic as the transaction is.
   */
  async completePage(
    crawlId: number,
    page: { id: number; url: string },
    facts: PageFacts,
    found: {
      links: PageLink[];
      /** Links the analysis left out (`maxLinksPerPage`), counted as dropped. */
      linksLeftOut?: number;
      discovered: FrontierEntry[];
      bounds: CrawlBounds;
      /** The page checks that failed or warned, for the crawl's roll-up. */
      checks?: PageCheck[];
    },
    storeReport: (trx: Kysely<Database>) => Promise<{ id: number }>,
    newReport?: NewReportStatement,
  ): Promise<void> {
    const admit = (db: Kysely<Database>) =>
      this.admission.admit(
        db,
        crawlId,
        found.bounds,
        found.links,
        found.discovered,
        Number.POSITIVE_INFINITY,
        found.linksLeftOut,
      );
    // PostgreSQL: the room is taken before the page's transaction, in a statement of its own (see `admit`).
    const admittedBefore = this.pageCommits ? undefined : await admit(this.db);
    // The checks' codes: on PostgreSQL read (or added) before the page's transaction, so that processes adding a
    // check's name at once never wait on each other's pages; on SQLite in the shared transaction, kept once it
    // has committed (a page rolled back takes the names it added with it).
    const checkNames = (found.checks ?? []).map((check) => check.check);
    const codesBefore = this.pageCommits
      ? this.checkCodes.cached(checkNames)
      : await this.checkCodes.of(this.db, checkNames);
    if (admittedBefore && codesBefore && newReport) {
      const rows = { ...admittedBefore, checks: found.checks ?? [], codes: codesBefore };
      const oneStatement = () => this.completeInOneStatement(crawlId, page, facts, rows, newReport);
      if (await writtenAgainOnDeadlock(oneStatement)) return this.statistics?.wrote();
    }
    let codesRead: Map<string, number> | undefined;
    const write = async (trx: Kysely<Database>) => {
      await this.clearPageRows(trx, crawlId, page);
      const { links, discovered } = admittedBefore ?? (await admit(trx));
      const report = await storeReport(trx);
      await this.insertLinks(trx, crawlId, page.id, links);
      await this.admission.addToFrontier(crawlId, discovered, trx);
      const codes = codesBefore ?? (await this.checkCodes.of(trx, checkNames, false));
      if (!codesBefore) codesRead = codes;
      await insertPageChecks(trx, crawlId, page, found.checks ?? [], codes);
      await trx
        .updateTable("crawl_pages")
        .set({ ...facts, ...claimReleased, state: "done", report_id: report.id })
        .where("id", "=", page.id)
        .execute();
    };
    if (!this.pageCommits) {
      await writtenAgainOnDeadlock(() => this.db.transaction().execute(write));
      return this.statistics?.wrote();
    }
    const addsDepths = found.discovered.some((entry) => entry.depth !== null && !entry.beyondDepth);
    if (addsDepths) this.waitingPagesAddingDepths++;
    try {
      await this.pageCommits.run(write);
      if (codesRead) this.checkCodes.remember(codesRead);
    } finally {
      if (addsDepths) this.waitingPagesAddingDepths--;
    }
  }

  /**
   * PostgreSQL, a page whose analysis makes a new report: everything `completePage`'s transaction writes, as one
   * statement run on its own, one round trip instead of eight. Its common table expressions lock the crawl's row
   * against its deletion (`for key share`, the statement's commit not waiting for the WAL's flush), insert the
   * report and its analysis (`newReport`; the report's owner read from the crawl's row, so that a crawl deleted
   * before the statement leaves the report without one and the statement fails whole), replace the page's links
   * and page checks (the deletes see the rows as they were before the statement, never those it inserts), and add
   * the URLs it found; the statement itself marks the page done. Every list is passed as arrays and unnested, so
   * that the statement's text is the same for every page and it runs prepared (store/prepared-statements.ts).
   * The page's own URL is left out of the URLs it adds: a statement may not write one row twice.
   *
   * A page completed before (its claim ran out while it was stored, and its report was deleted since) has its
   * row of checks already: a delete and an insert of the same key in one statement would conflict, so the row is
   * upserted instead, and deleted only when the page now has no failed or warned check (nothing inserted then).
   * The upsert's key is the table's only unique one, so no insert into `crawl_page_checks` should conflict; should
   * one all the same (a key added to the table later), the statement is false, having written nothing, and the
   * caller writes the page in its transaction instead, which clears the earlier rows first.
   */
  private async completeInOneStatement(
    crawlId: number,
    page: { id: number; url: string },
    facts: PageFacts,
    rows: {
      links: PageLink[];
      discovered: FrontierEntry[];
      checks: PageCheck[];
      codes: Map<string, number>;
    },
    newReport: NewReportStatement,
  ): Promise<boolean> {
    const { links, checks, codes } = rows;
    const discovered = mergedByUrl(rows.discovered).filter((entry) => entry.url !== page.url);
    const statement = newReport(
      this.db.with("crawl", (db) =>
        db
          .selectFrom("crawls")
          .select("user_id")
          .where("id", "=", crawlId)
          .where(flushingLater())
          .forKeyShare(),
      ),
      sql<number>`(select user_id from crawl)`,
    )
      .with("old_links", (db) => db.deleteFrom("crawl_links").where("from_page", "=", page.id))
      .with("old_checks", (db) =>
        db
          .deleteFrom("crawl_page_checks")
          .where("crawl_id", "=", crawlId)
          .where("page_id", "=", page.id)
          .where(sql<boolean>`${packChecks(checks, codes)}::text = ''`),
      )
      .with("links", (db) =>
        db
          .insertInto("crawl_links")
          .columns(["crawl_id", "from_page", "to_url", "nofollow", "anchor"])
          .expression(linkRows(crawlId, page.id, links)),
      )
      .with("frontier", (db) =>
        frontierUpsert(
          db
            .insertInto("crawl_pages")
            .columns(["crawl_id", "url", "depth", "state", "excluded", "in_sitemap"])
            .expression(frontierRows(crawlId, discovered)),
        ),
      )
      .with("checks", (db) =>
        db
          .insertInto("crawl_page_checks")
          .columns(["crawl_id", "page_id", "template", "checks"])
          .expression(
            pageCheckRow(
              { crawl_id: crawlId, page_id: page.id, template: urlTemplate(page.url) },
              checks,
              codes,
            ),
          )
          .onConflict((conflict) =>
            conflict.columns(["crawl_id", "page_id"]).doUpdateSet((eb) => ({
              template: eb.ref("excluded.template"),
              checks: eb.ref("excluded.checks"),
            })),
          ),
      )
      .updateTable("crawl_pages")
      .set((eb) => ({
        ...facts,
        ...claimReleased,
        state: "done",
        report_id: eb.selectFrom("new_report").select("new_report.id"),
      }))
      .where("id", "=", page.id);
    try {
      await statement.execute();
      return true;
    } catch (error) {
      const { code, table, column } = error as { code?: unknown; table?: unknown; column?: unknown };
      if (code === "23505" && table === "crawl_page_checks") return false;
      if (code === "23502" && (table === "reports" || table === "analyses") && column === "user_id") {
        throw new Error(`Crawl ${crawlId} was deleted while its page ${page.id} was analysed.`);
      }
      throw error;
    }
  }

  /**
   * A page's internal links. On PostgreSQL one statement whose text is the same for any number of links (their
   * fields passed as arrays and unnested), so that it runs prepared (store/prepared-statements.ts); on SQLite
   * rows of 500 at a time.
   */
  private async insertLinks(
    trx: Kysely<Database>,
    crawlId: number,
    fromPage: number,
    links: PageLink[],
  ): Promise<void> {
    if (links.length === 0) return;
    if (this.dialect === "postgres") {
      await trx
        .insertInto("crawl_links")
        .columns(["crawl_id", "from_page", "to_url", "nofollow", "anchor"])
        .expression(linkRows(crawlId, fromPage, links))
        .execute();
      return;
    }
    for (let start = 0; start < links.length; start += 500) {
      await trx
        .insertInto("crawl_links")
        .values(
          links.slice(start, start + 500).map((link) => ({
            crawl_id: crawlId,
            from_page: fromPage,
            to_url: link.to,
            nofollow: link.nofollow ? 1 : 0,
            anchor: link.anchor ?? null,
          })),
        )
        .execute();
    }
  }

  /**
   * First in a page's transaction: removes the links and page checks an earlier completion of the page stored
   * (one whose claim ran out while it worked, so that the page was claimed again), which its rows replace. On
   * PostgreSQL one statement that also lets the transaction commit without waiting for the WAL's flush (see
   * flushes-later.ts), a round trip per page fewer than a `set local` and two deletes, and that locks the crawl's
   * row against its deletion until the page commits (`for key share`, once per page: the per-page tables have no
   * foreign key to it since migration 028, whose check took that lock for every row). A crawl deleted meanwhile
   * fails the page, which then stores nothing.
   */
  private async clearPageRows(
    trx: Kysely<Database>,
    crawlId: number,
    page: { id: number; url: string },
  ): Promise<void> {
    const links = (db: QueryCreator<Database>) =>
      db.deleteFrom("crawl_links").where("from_page", "=", page.id);
    const checks = (db: QueryCreator<Database>) =>
      db.deleteFrom("crawl_page_checks").where("crawl_id", "=", crawlId).where("page_id", "=", page.id);
    if (this.dialect === "postgres") {
      const crawl = await trx
        .with("links", links)
        .with("checks", checks)
        .selectFrom("crawls")
        .select(flushingLater().as("flushes_later"))
        .where("id", "=", crawlId)
        .forKeyShare()
        .executeTakeFirst();
      if (!crawl) throw new Error(`Crawl ${crawlId} was deleted while its page ${page.id} was analysed.`);
      return;
    }
    await links(trx).execute();
    await checks(trx).execute();
  }

  /**
   * Commits the analysed pages waiting for their shared transaction now (a part with nothing to claim may be
   * waiting for the URLs they add); true when there were any.
   */
  commitWaitingPages(): Promise<boolean> {
    return this.pageCommits?.commitNow() ?? Promise.resolve(false);
  }

  /** Whether analysed pages waiting for their commit add URLs with a known depth (never on PostgreSQL). */
  pagesAddingDepthsWait(): boolean {
    return this.waitingPagesAddingDepths > 0;
  }
}

/** Tries of a page's transaction that PostgreSQL ended to break a deadlock. */
const deadlockTries = 3;

/**
 * Runs a page's transaction again when PostgreSQL ended it to break a deadlock (SQLSTATE 40P01): two pages
 * committed at once may lock the same frontier rows in different orders (each upserts the URLs it links to, in
 * its links' order, and its own row last; the order is the crawl's discovery order, so it is kept). The
 * transaction left nothing behind, and the page is written again, whole.
 */
async function writtenAgainOnDeadlock<T>(write: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      if ((error as { code?: unknown }).code !== "40P01" || attempt >= deadlockTries) throw error;
    }
  }
}

/** The page's failed and warned checks, its one row (the one an earlier completion stored is gone: `clearPageRows`). */
async function insertPageChecks(
  trx: Kysely<Database>,
  crawlId: number,
  page: { id: number; url: string },
  checks: PageCheck[],
  codes: Map<string, number>,
): Promise<void> {
  await insertPageRow(
    trx,
    { crawl_id: crawlId, page_id: page.id, template: urlTemplate(page.url) },
    checks,
    codes,
  );
}

/**
 * How a page's new report is written in its one statement on PostgreSQL (`FrontierStore.completePage`): the
 * report and its first analysis added to `statement` as common table expressions (`withNewReport`), owned by
 * `owner`.
 */
export type NewReportStatement = <DB extends Database>(
  statement: QueryCreator<DB>,
  owner: Expression<number>,
) => QueryCreator<DB & NewReportTables>;

/** PostgreSQL: a page's internal links as rows of crawl_links (its own id their source), from arrays. */
function linkRows(crawlId: number, fromPage: number, links: PageLink[]): RawBuilder<unknown> {
  return sql`
    select ${crawlId}::integer, ${fromPage}::integer, link.to_url, link.nofollow, link.anchor
    from unnest(
      ${links.map((link) => link.to)}::text[],
      ${links.map((link) => (link.nofollow ? 1 : 0))}::integer[],
      ${links.map((link) => link.anchor ?? null)}::text[]
    ) as link(to_url, nofollow, anchor)`;
}
