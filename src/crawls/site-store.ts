/**
 * What the site checks judge and what they find, for a finished crawl: the inlink counts (from the recorded
 * links), the source the checks read the crawl's page and link rows from (site-source-store.ts), the findings stored with the crawl's issue counts
 * (every finding with its fingerprint, for comparing crawls), and the mean score of its analysed pages.
 * A judgement writes its findings as they come into `crawl_findings_staged` (`stagedFindings`, migration 025),
 * under a token of its own, then `saveIssues` moves them into `crawl_findings` in the transaction that replaces
 * the crawl's issues: what the crawl shows changes all at once, and a judgement cut off halfway leaves only
 * staged rows, deleted when a judgement of the crawl is saved.
 */
import { randomBytes } from "node:crypto";
import { setImmediate as nextTurn } from "node:timers/promises";
import type { Kysely } from "kysely";
import { sql } from "kysely";
import type { SiteIssue, SiteIssueItem } from "../analysis/site-checks/site-facts.js";
import type { FindingSink } from "../analysis/site-checks/site-issue.js";
import type { SiteSource } from "../analysis/site-checks/site-source.js";
import type { Database } from "../store/schema.js";
import type { Dialect, Store } from "../store/store.js";
import type { CrawlRow } from "./crawl-store.js";
import { pageIdRanges, StoredSiteSource } from "./site-source-store.js";

/** A judgement's staged findings: the sink its checks write to, its token, and `clear` for when it fails. */
export interface StagedFindings extends FindingSink {
  judgement: string;
  clear(): Promise<void>;
}

/** How many findings one insert stores (five columns each: within SQLite's bound on parameters). */
const findingBatch = 500;
/** Links into a page beyond which its inlinks are counted a slice of source pages at a time. */
const defaultHeavyInlinks = 1000;
/** Heavy pages counted together in one pass over the sources (an `in (…)` list: within SQLite's bound). */
const batchTargets = 200;
/** How many staged findings one statement moves into `crawl_findings` (or deletes), between turns of the loop. */
const movedFindings = 5000;

export class SiteStore {
  private readonly db: Kysely<Database>;
  private readonly dialect: Dialect;

  constructor(store: Store) {
    this.db = store.db;
    this.dialect = store.dialect;
  }

  /**
   * The inlink count of every page (the distinct other pages linking to it), from the recorded links, set once
   * the crawl is over: a thousand pages per statement, each page's links looked up by target. A page with more
   * than `heavyInlinks` links into it (a page every page links to) is counted apart, so that no statement reads
   * more than about a thousand pages' worth of links: its distinct sources are counted a thousand source pages at
   * a time (each source belongs to one slice, so the slices' counts add up), the event loop let go between them.
   * That is for SQLite, whose statements hold the event loop; PostgreSQL answers while the loop turns, and counts
   * every page in its range (`heavyInlinks` null), unless told otherwise.
   */
  async countInlinks(
    crawlId: number,
    heavyInlinks = this.dialect === "sqlite" ? defaultHeavyInlinks : null,
  ): Promise<void> {
    const byTarget = this.dialect === "sqlite" ? sql`indexed by crawl_links_to` : sql``;
    const bySource = this.dialect === "sqlite" ? sql`indexed by crawl_links_from` : sql``;
    const heavy: Array<{ id: number; url: string }> = [];
    for await (const [after, upTo] of pageIdRanges(this.db, crawlId)) {
      const range = sql`crawl_id = ${crawlId} and id > ${after} ${upTo === null ? sql`` : sql`and id <= ${upTo}`}`;
      // Which of these pages are heavy: at most `heavyInlinks + 1` index entries read for each.
      const { rows } =
        heavyInlinks === null
          ? { rows: [] }
          : await sql<{ id: number; url: string }>`
        select p.id, p.url from crawl_pages p
        where p.crawl_id = ${crawlId} and p.id > ${after} ${upTo === null ? sql`` : sql`and p.id <= ${upTo}`}
          and (select count(*) from (
          select 1 from crawl_links l ${byTarget}
          where l.crawl_id = p.crawl_id and l.to_url = p.url limit ${heavyInlinks + 1}) as linked) > ${heavyInlinks}`.execute(
              this.db,
            );
      heavy.push(...rows.map((row) => ({ id: Number(row.id), url: row.url })));
      const notHeavy =
        rows.length === 0 ? sql`` : sql`and id not in (${sql.join(rows.map((row) => Number(row.id)))})`;
      await nextTurn();
      // Rows of their own (migration 026): writing the count into each page's wide row left as large a dead
      // copy of it on PostgreSQL.
      await sql`insert into crawl_page_inlinks (page_id, inlinks)
        select id, (
          select count(distinct l.from_page) from crawl_links l ${byTarget}
          where l.crawl_id = ${crawlId} and l.to_url = crawl_pages.url and l.from_page <> crawl_pages.id)
        from crawl_pages
        where ${range} ${notHeavy}
        on conflict (page_id) do update set inlinks = excluded.inlinks`.execute(this.db);
    }
    for (let start = 0; start < heavy.length; start += batchTargets) {
      const targets = heavy.slice(start, start + batchTargets);
      const counts = new Map<string, number>(targets.map((target) => [target.url, 0]));
      for await (const [after, upTo] of pageIdRanges(this.db, crawlId)) {
        await nextTurn();
        const { rows } = await sql<{ to_url: string; sources: number | string }>`
          select l.to_url, count(distinct l.from_page) as sources
          from crawl_pages s join crawl_links l ${bySource} on l.from_page = s.id
          where s.crawl_id = ${crawlId} and s.id > ${after} ${upTo === null ? sql`` : sql`and s.id <= ${upTo}`}
            and l.to_url in (${sql.join(targets.map((target) => target.url))}) and s.url <> l.to_url
          group by l.to_url`.execute(this.db);
        for (const row of rows) counts.set(row.to_url, (counts.get(row.to_url) ?? 0) + Number(row.sources));
      }
      for (const target of targets) {
        const inlinks = counts.get(target.url) ?? 0;
        await this.db
          .insertInto("crawl_page_inlinks")
          .values({ page_id: target.id, inlinks })
          .onConflict((conflict) => conflict.column("page_id").doUpdateSet({ inlinks }))
          .execute();
      }
    }
  }

  /** What the site checks read of the crawl: its rows, a batch or a query at a time (site-source-store.ts). */
  async source(crawl: CrawlRow): Promise<SiteSource> {
    const counts = await this.db
      .selectFrom("crawls")
      .select("links_dropped")
      .where("id", "=", crawl.id)
      .executeTakeFirst();
    return new StoredSiteSource(
      this.db,
      this.dialect,
      crawl.id,
      crawl.url,
      Number(counts?.links_dropped ?? 0),
    );
  }

  /**
   * Where a judgement of the crawl stores its findings as they come: `crawl_findings_staged`, under a token of
   * its own. `saveIssues(…, { staged: sink.judgement })` moves them in place; `clear` deletes what is left of
   * them (a judgement that failed).
   */
  stagedFindings(crawlId: number): StagedFindings {
    const { db } = this;
    const judgement = randomBytes(8).toString("hex");
    const own = () =>
      db
        .deleteFrom("crawl_findings_staged")
        .where("crawl_id", "=", crawlId)
        .where("judgement", "=", judgement);
    return {
      judgement,
      async write(check, position, findings) {
        for (let start = 0; start < findings.length; start += findingBatch) {
          await nextTurn();
          await db
            .insertInto("crawl_findings_staged")
            .values(
              findingRows(crawlId, check, position + start, findings.slice(start, start + findingBatch)).map(
                (row) => ({ ...row, judgement }),
              ),
            )
            .execute();
        }
      },
      async discard(check) {
        await own().where("check_id", "=", check).execute();
      },
      async clear() {
        await own().execute();
      },
    };
  }

  /**
   * Stores the site findings (replacing earlier ones): each issue with its first items, every finding with its
   * fingerprint, and the crawl's issue counts by importance. With `staged` (a judgement's token), the findings
   * are those the judgement stored in `crawl_findings_staged` (each issue's `count` of them), moved here a slice
   * at a time within the transaction, and every staged row of the crawl is deleted with them (what judgements
   * cut off halfway left); when some of them are missing (a later judgement of the crawl, saved first, deleted
   * them), nothing is saved and this throws: the crawl keeps the findings that were saved whole. Otherwise the
   * findings are each issue's `findings`.
   */
  async saveIssues(crawlId: number, issues: SiteIssue[], options: { staged?: string } = {}): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom("crawl_issues").where("crawl_id", "=", crawlId).execute();
      await trx.deleteFrom("crawl_findings").where("crawl_id", "=", crawlId).execute();
      for (const issue of issues) {
        for (let start = 0; start < issue.findings.length; start += findingBatch) {
          // The next turn of the event loop first: SQLite's statements would otherwise run back to back.
          await nextTurn();
          await trx
            .insertInto("crawl_findings")
            .values(
              findingRows(crawlId, issue.check, start, issue.findings.slice(start, start + findingBatch)),
            )
            .execute();
        }
        if (options.staged === undefined) continue;
        let moved = 0;
        for (let start = 0; start < issue.count; start += movedFindings) {
          await nextTurn();
          const slice = sql`crawl_id = ${crawlId} and judgement = ${options.staged} and check_id = ${issue.check}
            and position >= ${start} and position < ${start + movedFindings}`;
          const result =
            await sql`insert into crawl_findings (crawl_id, check_id, position, fingerprint, item)
            select crawl_id, check_id, position, fingerprint, item from crawl_findings_staged
            where ${slice}`.execute(trx);
          moved += Number(result.numAffectedRows ?? 0);
          await sql`delete from crawl_findings_staged where ${slice}`.execute(trx);
        }
        if (moved !== issue.count) {
          throw new Error(
            `site judgement of crawl ${crawlId}: ${issue.check} staged ${moved} of its ${issue.count} findings`,
          );
        }
      }
      if (options.staged !== undefined)
        await trx.deleteFrom("crawl_findings_staged").where("crawl_id", "=", crawlId).execute();
      if (issues.length > 0) {
        await trx
          .insertInto("crawl_issues")
          .values(
            issues.map((issue, position) => ({
              crawl_id: crawlId,
              position,
              check_id: issue.check,
              category: issue.category,
              importance: issue.importance,
              title: issue.title,
              message: issue.message,
              count: issue.count,
              items: JSON.stringify(issue.items),
              truncated: issue.truncated,
            })),
          )
          .execute();
      }
      const sum = (importance: string) =>
        issues
          .filter((issue) => issue.importance === importance)
          .reduce((total, issue) => total + issue.count, 0);
      await trx
        .updateTable("crawls")
        .set({ issues_high: sum("high"), issues_medium: sum("medium"), issues_low: sum("low") })
        .where("id", "=", crawlId)
        .execute();
    });
  }

  /** The rounded mean score of the crawl's analysed pages, or null when none was analysed. */
  async meanScore(crawlId: number): Promise<number | null> {
    const row = await this.db
      .selectFrom("crawl_pages")
      .select((eb) => eb.fn.avg<number>("score").as("mean"))
      .where("crawl_id", "=", crawlId)
      .where("score", "is not", null)
      .executeTakeFirstOrThrow();
    return row.mean === null ? null : Math.round(Number(row.mean));
  }
}

/** The rows of findings of `check` from `position` on. */
function findingRows(crawlId: number, check: string, position: number, findings: SiteIssueItem[]) {
  return findings.map((item, offset) => ({
    crawl_id: crawlId,
    check_id: check,
    position: position + offset,
    fingerprint: String(item.fingerprint),
    item: JSON.stringify(item),
  }));
}
