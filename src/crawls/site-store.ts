/**
 * What the site checks judge and what they find, for a finished crawl: the inlink counts (from the recorded
 * links), the crawl's facts read from its page and link rows, the findings stored with the crawl's issue counts
 * (every finding with its fingerprint, for comparing crawls), and the mean score of its analysed pages.
 */
import type { Kysely } from "kysely";
import { sql } from "kysely";
import type { SiteFacts, SiteIssue } from "../analysis/site-checks/site-facts.js";
import type { Database } from "../store/schema.js";
import type { Store } from "../store/store.js";
import type { CrawlRow } from "./crawl-store.js";

/** How many pages' links `siteFacts` reads at once. */
const linkBatchPages = 500;
/** How many findings one insert stores (five columns each: within SQLite's bound on parameters). */
const findingBatch = 500;

export class SiteStore {
  private readonly db: Kysely<Database>;

  constructor(store: Store) {
    this.db = store.db;
  }

  /** The inlink count of every page, from the recorded links (set once the crawl is over). */
  async countInlinks(crawlId: number): Promise<void> {
    await sql`update crawl_pages set inlinks = counted.n
      from (select to_url, count(distinct from_url) as n from crawl_links
            where crawl_id = ${crawlId} and from_url <> to_url group by to_url) as counted
      where crawl_pages.crawl_id = ${crawlId} and crawl_pages.url = counted.to_url`.execute(this.db);
  }

  /**
   * Everything the site checks judge, read from the crawl's rows. A site's URLs recur in every fact about it
   * (a page's own URL, its links' ends, canonicals, redirects), so each URL is kept as one string shared by all
   * of them; and links, by far the most rows, are read for a batch of pages at a time, so they are never held
   * twice over (as database rows and as facts) all at once.
   */
  async siteFacts(crawl: CrawlRow): Promise<SiteFacts> {
    const rows = await this.db
      .selectFrom("crawl_pages")
      .select([
        "url",
        "depth",
        "status_code",
        "error",
        "redirect_to",
        "content_type",
        "in_sitemap",
        "disallowed",
        "excluded",
        "indexable",
        "noindex",
        "canonical",
        "title",
        "meta_description",
        "text_hash",
        "text_minhash",
        "hreflang",
      ])
      .where("crawl_id", "=", crawl.id)
      .orderBy("id")
      .execute();
    const urls = new Map<string, string>();
    const shared = (url: string): string => {
      const known = urls.get(url);
      if (known !== undefined) return known;
      urls.set(url, url);
      return url;
    };
    const sharedOrNull = (url: string | null) => (url === null ? null : shared(url));
    const pages = rows.map((page) => ({
      url: shared(page.url),
      depth: page.depth,
      statusCode: page.status_code,
      error: page.error,
      redirectTo: sharedOrNull(page.redirect_to),
      contentType: page.content_type,
      inSitemap: page.in_sitemap === 1,
      disallowed: page.disallowed === 1,
      excluded: page.excluded,
      indexable: page.indexable === 1,
      noindex: page.noindex === 1,
      canonical: sharedOrNull(page.canonical),
      title: page.title,
      metaDescription: page.meta_description,
      text:
        page.text_hash === null || page.text_minhash === null
          ? null
          : { hash: page.text_hash, minhash: JSON.parse(page.text_minhash) as number[] },
      hreflang:
        page.hreflang === null
          ? []
          : (JSON.parse(page.hreflang) as Array<{ lang: string; url: string }>).map((alternate) => ({
              lang: alternate.lang,
              url: shared(alternate.url),
            })),
    }));
    const links: SiteFacts["links"] = [];
    const counts = await this.db
      .selectFrom("crawls")
      .select("links_dropped")
      .where("id", "=", crawl.id)
      .executeTakeFirst();
    // Links are recorded with a page's facts (`completePage`), its status among them.
    const fetched = pages.filter((page) => page.statusCode !== null).map((page) => page.url);
    for (let start = 0; start < fetched.length; start += linkBatchPages) {
      const batch = await this.db
        .selectFrom("crawl_links")
        .select(["from_url", "to_url", "nofollow"])
        .where("crawl_id", "=", crawl.id)
        .where("from_url", "in", fetched.slice(start, start + linkBatchPages))
        .execute();
      for (const link of batch) {
        links.push({ from: shared(link.from_url), to: shared(link.to_url), nofollow: link.nofollow === 1 });
      }
    }
    return { startUrl: crawl.url, pages, links, linksLeftOut: Number(counts?.links_dropped ?? 0) };
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
