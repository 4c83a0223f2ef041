/**
 * What the site checks judge and what they find, for a finished crawl: the inlink counts (from the recorded
 * links), the source the checks read the crawl's page and link rows from (site-source-store.ts), the findings stored with the crawl's issue counts
 * (every finding with its fingerprint, for comparing crawls), and the mean score of its analysed pages.
 */
import { setImmediate as nextTurn } from "node:timers/promises";
import type { Kysely } from "kysely";
import { sql } from "kysely";
import type { SiteIssue } from "../analysis/site-checks/site-facts.js";
import type { SiteSource } from "../analysis/site-checks/site-source.js";
import type { Database } from "../store/schema.js";
import type { Dialect, Store } from "../store/store.js";
import type { CrawlRow } from "./crawl-store.js";
import { pageIdRanges, StoredSiteSource } from "./site-source-store.js";

/** How many findings one insert stores (five columns each: within SQLite's bound on parameters). */
const findingBatch = 500;

export class SiteStore {
  private readonly db: Kysely<Database>;
  private readonly dialect: Dialect;

  constructor(store: Store) {
    this.db = store.db;
    this.dialect = store.dialect;
  }

  /**
   * The inlink count of every page (the distinct other pages linking to it), from the recorded links, set once
   * the crawl is over: a thousand pages per statement, each page's links looked up by target.
   */
  async countInlinks(crawlId: number): Promise<void> {
    const byTarget = this.dialect === "sqlite" ? sql`indexed by crawl_links_to` : sql``;
    for await (const [after, upTo] of pageIdRanges(this.db, crawlId)) {
      await sql`update crawl_pages set inlinks = (
          select count(distinct l.from_url) from crawl_links l ${byTarget}
          where l.crawl_id = ${crawlId} and l.to_url = crawl_pages.url and l.from_url <> l.to_url)
        where crawl_id = ${crawlId} and id > ${after} ${upTo === null ? sql`` : sql`and id <= ${upTo}`}`.execute(
        this.db,
      );
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
   * Stores the site findings (replacing earlier ones): each issue with its first items, every finding with its
   * fingerprint, and the crawl's issue counts by importance.
   */
  async saveIssues(crawlId: number, issues: SiteIssue[]): Promise<void> {
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
              issue.findings.slice(start, start + findingBatch).map((item, offset) => ({
                crawl_id: crawlId,
                check_id: issue.check,
                position: start + offset,
                fingerprint: String(item.fingerprint),
                item: JSON.stringify(item),
              })),
            )
            .execute();
        }
      }
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
