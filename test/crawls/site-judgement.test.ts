/**
 * The site judgement over the database, on SQLite and PostgreSQL, against the reference judgement (the site
 * checks as they were, holding the whole crawl in memory: test/helpers/reference-site-checks/) over a generated
 * crawl of 3,000 pages with every kind of defect and a few hand-made neighbours that look alike (excluded,
 * unfetched, 401, reciprocal hreflang, a link to itself): the same issues, messages, counts, listed items and
 * stored findings with the same fingerprints, in the same order. The same judgement over the facts in memory
 * (`factsSource`) agrees too, and judging a crawl again replaces its findings rather than adding to them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { judgeSite } from "../../src/analysis/site-checks/index.js";
import type { SiteFacts, SiteIssue, SitePage } from "../../src/analysis/site-checks/site-facts.js";
import { factsSource } from "../../src/analysis/site-checks/site-source.js";
import type { CrawlRow } from "../../src/crawls/crawl-store.js";
import { type CrawlStores, openCrawlStores } from "../../src/crawls/crawl-stores.js";
import { judgeCrawl } from "../../src/crawls/site-judgement.js";
import { databaseKinds, freshDatabase, type TestDatabase } from "../helpers/api.js";
import { crawlOwner, runningCrawl } from "../helpers/crawl-rows.js";
import { referenceJudgement } from "../helpers/reference-site-checks/index.js";
import { sitePage } from "../helpers/site-page.js";
import {
  type SyntheticLink,
  syntheticOrigin,
  syntheticPage,
  syntheticStart,
  writeCrawl,
} from "../helpers/synthetic-crawl.js";

const generated = 3000;
const at = (path: string) => `${syntheticOrigin}${path}`;

function handMade(path: string, facts: Partial<SitePage>): SitePage {
  return sitePage(at(path), { canonical: at(path), title: `Hand-made ${path}`, ...facts });
}

const unfetched = { statusCode: null, contentType: null, indexable: false, canonical: null, title: null };

/** Neighbours that look like defects and are not, and a few that are. */
const extras: Array<{ page: SitePage; links: SyntheticLink[] }> = [
  {
    page: handMade("/hub", { canonical: at("/not-fetched") }),
    links: [
      "/private",
      "/not-fetched",
      "/login",
      "/hub",
      "/deep",
      "/en",
      "/files/report.pdf",
      "/p/200",
      "/p/300",
    ].map((path) => ({ to: at(path), nofollow: path === "/en" })),
  },
  {
    page: handMade("/private", { ...unfetched, excluded: "robots", disallowed: true, inSitemap: true }),
    links: [],
  },
  { page: handMade("/not-fetched", { ...unfetched, inSitemap: true, depth: null }), links: [] },
  {
    page: handMade("/login", { statusCode: 401, indexable: false, canonical: null, inSitemap: true }),
    links: [],
  },
  { page: handMade("/deep", { depth: 9, title: "Page 7" }), links: [{ to: at("/hub"), nofollow: true }] },
  {
    page: handMade("/en", {
      canonical: at("/login"),
      hreflang: [
        { lang: "de", url: at("/de") },
        { lang: "x-default", url: at("/private") },
        { lang: "fr", url: at("/nowhere") },
      ],
    }),
    links: [{ to: at("/de"), nofollow: false }],
  },
  {
    page: handMade("/de", {
      hreflang: [{ lang: "en", url: at("/en") }],
      metaDescription: "What page 8 is about",
    }),
    links: [{ to: "http://bench.example/en", nofollow: false }],
  },
  {
    page: handMade("/files/report.pdf", {
      ...unfetched,
      excluded: "not-html",
      statusCode: 200,
      inSitemap: true,
    }),
    links: [],
  },
];

const pageAt = (index: number) =>
  index < generated ? syntheticPage(index, generated) : extras[index - generated];
const count = generated + extras.length;

/** The crawl's facts as the reference reads them: pages in crawl order, links in link order. */
function factsOf(): SiteFacts {
  const pages: SitePage[] = [];
  const links: SiteFacts["links"] = [];
  for (let index = 0; index < count; index++) {
    const { page, links: out } = pageAt(index) as { page: SitePage; links: SyntheticLink[] };
    pages.push(page);
    const sorted = out.map((link) => link.to).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    for (const to of sorted) {
      links.push({ from: page.url, to, nofollow: out.find((link) => link.to === to)?.nofollow ?? false });
    }
  }
  return { startUrl: syntheticStart, pages, links, linksLeftOut: 0 };
}

/** What a judgement leaves of each issue, comparable across judgements. */
function shapeOf(issue: SiteIssue) {
  return {
    check: issue.check,
    category: issue.category,
    importance: issue.importance,
    title: issue.title,
    message: issue.message,
    count: issue.count,
    truncated: issue.truncated,
    items: issue.items,
  };
}

describe.each(databaseKinds)("the site judgement on %s", (kind) => {
  let database: TestDatabase;
  let stores: CrawlStores;
  let crawl: CrawlRow;
  let reference: SiteIssue[];

  beforeAll(async () => {
    database = await freshDatabase(kind);
    stores = openCrawlStores(database.store);
    const userId = await crawlOwner(database.store);
    crawl = await runningCrawl(stores, userId, { url: syntheticStart, max_pages: count });
    await writeCrawl(
      database.store,
      crawl.id,
      count,
      (index) => pageAt(index) as ReturnType<typeof pageAt> & {},
    );
    const judged = referenceJudgement(factsOf());
    expect(judged.errors).toEqual([]);
    reference = judged.issues;
  }, 120_000);
  afterAll(async () => database.drop());

  async function stored() {
    const issues = await stores.listings.issues(crawl.id);
    const findings = await database.store.db
      .selectFrom("crawl_findings")
      .select(["check_id", "position", "fingerprint", "item"])
      .where("crawl_id", "=", crawl.id)
      .orderBy("check_id")
      .orderBy("position")
      .execute();
    return {
      issues: issues.map((row) => ({
        check: row.check_id,
        category: row.category,
        importance: row.importance,
        title: row.title,
        message: row.message,
        count: Number(row.count),
        truncated: Number(row.truncated),
        items: JSON.parse(row.items),
      })),
      findings: findings.map((row) => [
        row.check_id,
        Number(row.position),
        row.fingerprint,
        JSON.parse(row.item),
      ]),
    };
  }

  const referenceFindings = () =>
    reference
      .flatMap((issue) =>
        issue.findings.map((item, position) => [issue.check, position, String(item.fingerprint), item]),
      )
      .sort((a, b) =>
        a[0] === b[0] ? (a[1] as number) - (b[1] as number) : (a[0] as string) < (b[0] as string) ? -1 : 1,
      );

  it("finds every kind of defect on the generated crawl", () => {
    expect(reference.map((issue) => issue.check).sort()).toEqual(
      [
        "broken-links",
        "canonical-targets",
        "click-depth",
        "duplicate-content",
        "duplicate-meta-description",
        "duplicate-title",
        "hreflang-reciprocity",
        "insecure-links",
        "nofollow-internal-links",
        "orphan-pages",
        "redirect-chains",
        "redirected-links",
        "sitemap-errors",
      ].sort(),
    );
    // Enough findings that the lists are cut, and sources beyond the listed five.
    expect(reference.some((issue) => issue.truncated > 0)).toBe(true);
    expect(reference.some((issue) => issue.findings.some((item) => Number(item.links ?? 0) > 5))).toBe(true);
  });

  it("stores what the reference judgement finds, finding for finding", async () => {
    await judgeCrawl(stores.site, crawl);
    const { issues, findings } = await stored();
    expect(issues).toEqual(reference.map(shapeOf));
    expect(findings).toEqual(referenceFindings());
  });

  it("replaces the findings when the crawl is judged again", async () => {
    await judgeCrawl(stores.site, crawl);
    await judgeCrawl(stores.site, crawl);
    const { issues, findings } = await stored();
    expect(issues).toEqual(reference.map(shapeOf));
    expect(findings).toHaveLength(reference.reduce((total, issue) => total + issue.count, 0));
  });

  it("finds the same over the facts held in memory", async () => {
    const { issues, errors } = await judgeSite(factsSource(factsOf()));
    expect(errors).toEqual([]);
    expect(issues).toEqual(reference);
  });
});
