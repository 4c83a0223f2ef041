/**
 * The site checks' source over a crawl's rows (`SiteSource`, src/analysis/site-checks/site-source.ts), on SQLite
 * and PostgreSQL alike: pages read a batch at a time by id (the `crawl_pages_order` index), and what compares
 * links with their targets answered by the database (group-bys over `crawl_links` joined with the target's and
 * the source's rows, an anti-join for unlinked pages), so no judgement holds the crawl's pages or links.
 *
 * better-sqlite3 answers synchronously, so awaiting its answers never lets the event loop turn: each batch first
 * waits for the next turn (`setImmediate`), so timers and requests are served between statements.
 *
 * Only links from pages that were fetched count (a page's links are stored with its status). Link order is the
 * source page's id, then the target URL compared byte by byte (`collate "C"` on PostgreSQL, SQLite's default).
 * A link names its source by the page's id (`from_page`, migration 042), the URL read from the page's row; a
 * link from a page to itself is one whose source is the target's page.
 */
import { setImmediate as nextTurn } from "node:timers/promises";
import { type Kysely, type Selectable, sql } from "kysely";
import type { SitePage } from "../analysis/site-checks/site-facts.js";
import type {
  LinkedTarget,
  LinkTargetKind,
  PageSelection,
  SiteSource,
} from "../analysis/site-checks/site-source.js";
import type { CrawlPagesTable, Database } from "../store/schema.js";
import type { Dialect } from "../store/store.js";
import { unpackFingerprint } from "../store/stored-fingerprint.js";

/** Pages per batch read, and URLs per `in (…)` list (within SQLite's bound on parameters). */
const batchPages = 1000;
const batchUrls = 500;
/** Links into a target beyond which SQLite reads them a slice of source pages at a time (`heavyTargets`). */
const heavyTargetLinks = 1000;

interface RankedLink {
  to_url: string;
  from_url: string;
  source_id: number;
}

const pageColumns = [
  "id",
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
  "hreflang",
] as const;

type PageRow = Pick<Selectable<CrawlPagesTable>, (typeof pageColumns)[number]> & {
  text_fingerprint?: Buffer | null;
};

function pageOf(row: PageRow): SitePage {
  return {
    url: row.url,
    depth: row.depth,
    statusCode: row.status_code,
    error: row.error,
    redirectTo: row.redirect_to,
    contentType: row.content_type,
    inSitemap: row.in_sitemap === 1,
    disallowed: row.disallowed === 1,
    excluded: row.excluded,
    indexable: row.indexable === 1,
    noindex: row.noindex === 1,
    canonical: row.canonical,
    title: row.title,
    metaDescription: row.meta_description,
    text: row.text_fingerprint == null ? null : unpackFingerprint(row.text_fingerprint),
    hreflang:
      row.hreflang === null
        ? []
        : (JSON.parse(row.hreflang) as Array<{ lang: string; url: string }>).map((alternate) => ({
            lang: alternate.lang,
            url: alternate.url,
          })),
  };
}

/**
 * A crawl's pages as ranges of ids (after, up to], a thousand pages each (the last without an upper end): what
 * one statement walks at once, so none reads the whole crawl (nor holds the event loop long on SQLite).
 */
export async function* pageIdRanges(
  db: Kysely<Database>,
  crawlId: number,
): AsyncIterable<[after: number, upTo: number | null]> {
  let after = 0;
  for (;;) {
    const bound = await db
      .selectFrom("crawl_pages")
      .select("id")
      .where("crawl_id", "=", crawlId)
      .where("id", ">", after)
      .orderBy("id")
      .limit(1)
      .offset(batchPages - 1)
      .executeTakeFirst();
    if (!bound) {
      yield [after, null];
      return;
    }
    yield [after, bound.id];
    after = bound.id;
    await nextTurn();
  }
}

export class StoredSiteSource implements SiteSource {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
    private readonly crawlId: number,
    readonly startUrl: string,
    readonly linksLeftOut: number,
  ) {}

  async *pages(selection: PageSelection): AsyncIterable<SitePage[]> {
    const withText = selection === "texts";
    let lastId = 0;
    for (;;) {
      let query = this.db
        .selectFrom("crawl_pages")
        .select(pageColumns)
        .where("crawl_id", "=", this.crawlId)
        .where("id", ">", lastId);
      if (withText) query = query.select(["text_fingerprint"]);
      query = query.where((eb) => {
        switch (selection) {
          case "indexable":
            return eb.and([eb("indexable", "=", 1), eb("status_code", "=", 200)]);
          case "texts":
            return eb.and([
              eb("indexable", "=", 1),
              eb("status_code", "=", 200),
              eb("text_fingerprint", "is not", null),
            ]);
          case "sitemap":
            return eb("in_sitemap", "=", 1);
          case "redirects":
            return eb("redirect_to", "is not", null);
          case "canonicals":
            return eb.and([eb("canonical", "is not", null), eb("canonical", "<>", eb.ref("url"))]);
          case "hreflang":
            return eb("hreflang", "is not", null);
        }
      });
      await nextTurn();
      const rows = (await query.orderBy("id").limit(batchPages).execute()) as PageRow[];
      if (rows.length === 0) return;
      lastId = (rows.at(-1) as PageRow).id;
      yield rows.map(pageOf);
      if (rows.length < batchPages) return;
    }
  }

  async *deepPages(depth: number): AsyncIterable<SitePage[]> {
    const deep = this.db
      .selectFrom("crawl_pages")
      .where("crawl_id", "=", this.crawlId)
      .where("indexable", "=", 1)
      .where("status_code", "=", 200);
    // Depth by depth, deepest first, each in crawl order a batch at a time.
    const depths = await deep
      .select("depth")
      .distinct()
      .where("depth", ">", depth)
      .orderBy("depth", "desc")
      .execute();
    for (const { depth: at } of depths) {
      let lastId = 0;
      for (;;) {
        await nextTurn();
        const rows = await deep
          .select(pageColumns)
          .where("depth", "=", at)
          .where("id", ">", lastId)
          .orderBy("id")
          .limit(batchPages)
          .execute();
        if (rows.length === 0) break;
        lastId = (rows.at(-1) as PageRow).id;
        yield rows.map(pageOf);
        if (rows.length < batchPages) break;
      }
    }
  }

  async pagesAt(urls: readonly string[]): Promise<Map<string, SitePage>> {
    const found = new Map<string, SitePage>();
    for (let start = 0; start < urls.length; start += batchUrls) {
      if (start > 0) await nextTurn();
      const rows = await this.db
        .selectFrom("crawl_pages")
        .select(pageColumns)
        .where("crawl_id", "=", this.crawlId)
        .where("url", "in", urls.slice(start, start + batchUrls))
        .execute();
      for (const row of rows) found.set(row.url, pageOf(row));
    }
    return found;
  }

  async linkTargets(kind: LinkTargetKind, sourceLimit: number): Promise<LinkedTarget[]> {
    const found: Array<LinkedTarget & { firstSource: number }> = [];
    if (kind === "insecure") {
      for await (const urls of this.insecureTargets())
        found.push(...(await this.linkedTo(kind, urls, sourceLimit)));
    } else {
      const condition = {
        broken: sql`t.excluded is null and ((t.status_code is null and t.error is not null)
            or t.status_code in (404, 410) or t.status_code >= 500)`,
        redirected: sql`t.redirect_to is not null`,
        nofollow: sql`t.indexable = 1 and t.status_code = 200`,
      }[kind];
      for await (const [after, upTo] of pageIdRanges(this.db, this.crawlId)) {
        const { rows } = await sql<{ url: string }>`
          select t.url from crawl_pages t
          where t.crawl_id = ${this.crawlId} and t.id > ${after} ${upTo === null ? sql`` : sql`and t.id <= ${upTo}`}
            and ${condition}`.execute(this.db);
        if (rows.length > 0) {
          found.push(
            ...(await this.linkedTo(
              kind,
              rows.map((row) => row.url),
              sourceLimit,
            )),
          );
        }
      }
    }
    // Link order: by the first source's place in the crawl, then by URL (code units, as the databases compare).
    return found
      .sort((a, b) => a.firstSource - b.firstSource || (a.url < b.url ? -1 : a.url > b.url ? 1 : 0))
      .map(({ firstSource: _, ...target }) => target);
  }

  /** The distinct http:// link targets, a batch at a time in URL order (a range of the (crawl, target) index). */
  private async *insecureTargets(): AsyncIterable<string[]> {
    const bytewise = this.dialect === "postgres" ? sql`collate "C"` : sql``;
    let after = "http:";
    for (;;) {
      await nextTurn();
      const { rows } = await sql<{ to_url: string }>`
        select distinct l.to_url ${bytewise} as to_url from crawl_links l ${this.linksByTarget()}
        where l.crawl_id = ${this.crawlId} and l.to_url ${bytewise} > ${after} and l.to_url ${bytewise} < 'http;'
        order by 1
        limit ${batchUrls}`.execute(this.db);
      const urls = rows.map((row) => row.to_url).filter((url) => url.startsWith("http:"));
      if (urls.length > 0) yield urls;
      if (rows.length < batchUrls) return;
      after = (rows.at(-1) as { to_url: string }).to_url;
    }
  }

  /**
   * The links into these URLs from fetched pages (nofollow ones only for `nofollow`), per URL linked to: how many
   * distinct pages, the first of them in crawl order, and the page at the URL (for all but `insecure`).
   */
  private async linkedTo(
    kind: LinkTargetKind,
    urls: string[],
    sourceLimit: number,
  ): Promise<Array<LinkedTarget & { firstSource: number }>> {
    const linked: Array<LinkedTarget & { firstSource: number }> = [];
    for (let start = 0; start < urls.length; start += batchUrls) {
      const batch = urls.slice(start, start + batchUrls);
      await nextTurn();
      const onlyNofollow = kind === "nofollow" ? sql`and l.nofollow = 1` : sql``;
      const heavy = await this.heavyTargets(batch);
      const light = heavy.length === 0 ? batch : batch.filter((url) => !heavy.includes(url));
      const ranked =
        light.length === 0
          ? { rows: [] }
          : await sql<RankedLink>`
        select l.to_url, s.url as from_url, s.id as source_id
        from crawl_links l ${this.linksByTarget()}
        join crawl_pages s on s.id = l.from_page
        where l.crawl_id = ${this.crawlId} and l.to_url in (${sql.join(light)})
          and s.status_code is not null and s.url <> l.to_url ${onlyNofollow}
        group by l.to_url, s.id, s.url
        order by s.id`.execute(this.db);
      const rows: RankedLink[] = ranked.rows;
      if (heavy.length > 0) {
        // A heavy target's links a thousand source pages at a time, in crawl order (each source in one slice).
        for await (const [after, upTo] of pageIdRanges(this.db, this.crawlId)) {
          await nextTurn();
          const slice = await sql<RankedLink>`
            select l.to_url, s.url as from_url, s.id as source_id
            from crawl_pages s join crawl_links l ${this.linksBySource()} on l.from_page = s.id
            where s.crawl_id = ${this.crawlId} and s.id > ${after} ${upTo === null ? sql`` : sql`and s.id <= ${upTo}`}
              and l.to_url in (${sql.join(heavy)})
              and s.status_code is not null and s.url <> l.to_url ${onlyNofollow}
            group by l.to_url, s.id, s.url
            order by s.id`.execute(this.db);
          rows.push(...slice.rows);
        }
      }
      const targets = new Map<string, { count: number; first: number; sources: string[] }>();
      for (const row of rows) {
        const target = targets.get(row.to_url) ?? { count: 0, first: Number(row.source_id), sources: [] };
        target.count++;
        if (target.sources.length < sourceLimit) target.sources.push(row.from_url);
        targets.set(row.to_url, target);
      }
      if (targets.size === 0) continue;
      const pages =
        kind === "insecure" ? new Map<string, SitePage>() : await this.pagesAt([...targets.keys()]);
      for (const [url, target] of targets) {
        linked.push({
          url,
          page: pages.get(url) ?? null,
          sourceCount: target.count,
          sources: target.sources,
          firstSource: target.first,
        });
      }
    }
    return linked;
  }

  async unlinkedSitemapPages(): Promise<SitePage[]> {
    const found: SitePage[] = [];
    for await (const [after, upTo] of pageIdRanges(this.db, this.crawlId)) {
      // Nested `exists`, not a join: each sitemap page looks up its links by target (the planner told which
      // index on SQLite, where without fresh statistics it may walk all of the crawl's links for each page).
      const rows = await sql<PageRow>`
        select ${sql.join(pageColumns.map((column) => sql.ref(`p.${column}`)))}
        from crawl_pages p
        where p.crawl_id = ${this.crawlId} and p.id > ${after} ${upTo === null ? sql`` : sql`and p.id <= ${upTo}`}
          and p.in_sitemap = 1 and p.url <> ${this.startUrl}
          and not exists (
            select 1 from crawl_links l ${this.linksByTarget()}
            where l.crawl_id = p.crawl_id and l.to_url = p.url and l.from_page <> p.id
              and exists (select 1 from crawl_pages s where s.id = l.from_page and s.status_code is not null))
        order by p.id`.execute(this.db);
      found.push(...rows.rows.map(pageOf));
    }
    return found;
  }

  /**
   * On SQLite, which of these URLs have more than `heavyTargetLinks` links into them (a page every page links
   * to): their links are read a slice of source pages at a time, so that no statement holds the event loop for
   * long. At most `heavyTargetLinks + 1` index entries are read for each. PostgreSQL answers while the loop turns.
   */
  private async heavyTargets(urls: string[]): Promise<string[]> {
    if (this.dialect !== "sqlite" || urls.length === 0) return [];
    const { rows } = await sql<{ url: string }>`
      with t(url) as (values ${sql.join(urls.map((url) => sql`(${url})`))})
      select t.url from t
      where (select count(*) from (
        select 1 from crawl_links l ${this.linksByTarget()}
        where l.crawl_id = ${this.crawlId} and l.to_url = t.url limit ${heavyTargetLinks + 1}) as linked) > ${heavyTargetLinks}`.execute(
      this.db,
    );
    return rows.map((row) => row.url);
  }

  /** On SQLite, the source page's index for reading a slice of source pages' links. */
  private linksBySource() {
    return this.dialect === "sqlite" ? sql`indexed by crawl_links_from` : sql``;
  }

  /** On SQLite, the (crawl, target) index for reading links by their target. */
  private linksByTarget() {
    return this.dialect === "sqlite" ? sql`indexed by crawl_links_to` : sql``;
  }
}
