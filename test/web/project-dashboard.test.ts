/**
 * A project's dashboard page on both databases: its reports by result, the score and the findings by importance
 * over its complete crawls as server-drawn SVG (each point linking to its crawl), "fix first" from the latest
 * crawl's roll-up with its URL patterns, what changed in the latest crawl against the one before (none with one
 * crawl; compared on the first view and stored for the next); a project without crawls; another user's project
 * is a 404.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertNamedRows } from "../../src/crawls/page-check-code-store.js";
import { timestamp } from "../../src/timestamps.js";
import { databaseKinds, startApi, type TestApi } from "../helpers/api.js";
import { seedColumns } from "../helpers/seed.js";
import { WebClient } from "../helpers/web-client.js";

describe.each(databaseKinds)("the project dashboard on %s", (kind) => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startApi(kind);
  });
  afterAll(async () => {
    await api.close();
  });

  const signUp = async (email: string) => {
    const client = new WebClient(api.app);
    expect((await client.signUp(email)).statusCode).toBe(200);
    const account = await api.accounts.verifyLogin(email, "correct horse battery");
    return { client, userId: account?.id as number };
  };

  /** A complete crawl of shop.example finished on the day, with its figures and failed checks. */
  const seedCrawl = async (
    userId: number,
    finished: string,
    figures: { score: number; high: number; medium: number; low: number },
    failedPages: string[],
    more: { passingPages?: string[]; brokenLinks?: string[] } = {},
  ) => {
    const db = api.database.store.db;
    const now = timestamp();
    const crawl = await db
      .insertInto("crawls")
      .values({
        user_id: userId,
        url: "https://shop.example/",
        project: "shop.example",
        status: "complete",
        max_pages: 10,
        max_depth: 5,
        sitemaps: 0,
        include: "[]",
        exclude: "[]",
        mode: "raw",
        privacy: 1,
        schedule: "off",
        analysed: failedPages.length,
        score: figures.score,
        result: figures.score >= 80 ? "good" : "decent",
        issues_high: figures.high,
        issues_medium: figures.medium,
        issues_low: figures.low,
        started_at: finished,
        finished_at: finished,
        created_at: now,
        updated_at: now,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    for (const url of more.passingPages ?? []) {
      await db
        .insertInto("crawl_pages")
        .values({ crawl_id: crawl.id, url, state: "done", depth: 1, status_code: 200, result: "good" })
        .execute();
    }
    const broken = more.brokenLinks ?? [];
    if (broken.length > 0) {
      const items = broken.map((url) => ({
        url,
        status: 404,
        sources: ["https://shop.example/"],
        fingerprint: url,
      }));
      await db
        .insertInto("crawl_issues")
        .values({
          crawl_id: crawl.id,
          position: 0,
          check_id: "broken-links",
          category: "seo",
          importance: "high",
          title: "Broken links",
          message: "Internal links point to URLs that answer an error.",
          count: broken.length,
          items: JSON.stringify(items),
          truncated: 0,
        })
        .execute();
      await db
        .insertInto("crawl_findings")
        .values(
          items.map((item, position) => ({
            crawl_id: crawl.id,
            check_id: "broken-links",
            position,
            fingerprint: item.fingerprint,
            item: JSON.stringify(item),
          })),
        )
        .execute();
    }
    for (const url of failedPages) {
      const page = await db
        .insertInto("crawl_pages")
        .values({
          crawl_id: crawl.id,
          url,
          state: "done",
          depth: 1,
          status_code: 200,
          result: "decent",
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      await insertNamedRows(db, [
        {
          crawl_id: crawl.id,
          page_id: page.id,
          check_id: "image-alt",
          status: "fail",
          template: new URL(url).pathname.startsWith("/blog/") ? "/blog/*" : "/",
        },
      ]);
    }
    return crawl.id;
  };

  it("draws the crawls over time and lists what to fix first", async () => {
    const { client, userId } = await signUp("dashboard@example.com");
    await api.database.store.db
      .insertInto("reports")
      .values([
        seedColumns(userId, { url: "https://shop.example/", score: 90 }),
        seedColumns(userId, { url: "https://shop.example/blog/a", score: 60 }),
      ])
      .execute();
    const first = await seedCrawl(
      userId,
      "2026-11-01T10:00:00.000000Z",
      { score: 70, high: 4, medium: 1, low: 0 },
      ["https://shop.example/blog/a"],
      // The first crawl reached the pages that answer 404 in the latest one: their broken links are new, not
      // newly checked (a comparison is about what both crawls could see).
      {
        passingPages: ["https://shop.example/", "https://shop.example/<new>", "https://shop.example/gone"],
        brokenLinks: ["https://shop.example/old"],
      },
    );
    // With one crawl there is nothing to compare it with.
    expect((await client.get("/projects/shop.example")).body).not.toContain("latest-changes");
    const latest = await seedCrawl(
      userId,
      "2026-11-08T10:00:00.000000Z",
      { score: 75, high: 2, medium: 3, low: 1 },
      ["https://shop.example/", "https://shop.example/blog/a", "https://shop.example/blog/b"],
      {
        brokenLinks: ["https://shop.example/old", "https://shop.example/<new>", "https://shop.example/gone"],
      },
    );

    const page = await client.get("/projects/shop.example");
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain("<h1>shop.example</h1>");
    expect(page.body).toContain("2 reports");
    expect(page.body).toContain("1 good, 1 decent, 0 bad");
    expect(page.body).toContain("Site score over 2 crawls: from 70 to 75.");
    expect(page.body).toContain("latest: 2 high, 3 medium, 1 low");
    for (const id of [first, latest]) expect(page.body).toContain(`<a href="/crawls/${id}">`);
    // Fix first: page checks and site issues in one ranking, each linking to its pages.
    const fixFirst = page.body.slice(page.body.indexOf('<ol class="fix-first">'));
    expect(fixFirst).toMatch(
      new RegExp(
        `<a href="/crawls/${latest}/checks/image-alt/pages"><strong>[^<]+</strong></a> <span class="muted">\\(high, page check\\)</span>: 3 pages`,
      ),
    );
    expect(fixFirst).toContain("/blog/* (2), / (1)");
    expect(fixFirst).toContain(
      `<a href="/crawls/${latest}?open=broken-links#issue-broken-links"><strong>Broken links</strong></a> <span class="muted">(high, site issue)</span>`,
    );
    // What changed against the crawl before: the comparison's counts, its first new findings, its page.
    const changes = page.body.slice(page.body.indexOf('id="latest-changes"'));
    expect(changes).toContain("Against the crawl finished 2026-11-01; site score +5.");
    expect(changes).toContain("<dt>New findings</dt><dd>2</dd>");
    expect(changes).toContain("<dt>Resolved findings</dt><dd>0</dd>");
    expect(changes).toContain("<dt>Pages regressed</dt><dd>1</dd>");
    expect(changes).toContain("<dt>Pages fixed</dt><dd>0</dd>");
    expect(changes).toContain('<span class="key">https://shop.example/&#60;new&#62;</span>');
    expect(changes).toContain(
      '<strong>Broken links</strong> <code class="muted check-id">broken-links</code> <span class="muted">(high)</span>',
    );
    expect(changes).toContain(`<a href="/crawls/${latest}/diff">`);
    // Crawls written without completing have no summary: the first view compared them and stored it, and the
    // next view shows the same from it.
    expect(
      await api.database.store.db
        .selectFrom("crawl_change_summaries")
        .select(["to_crawl_id", "from_crawl_id"])
        .execute(),
    ).toEqual([{ to_crawl_id: latest, from_crawl_id: first }]);
    const again = (await client.get("/projects/shop.example")).body;
    expect(again.slice(again.indexOf('id="latest-changes"'))).toBe(changes);
    expect((await client.get("/projects")).body).toContain('<a href="/projects/shop.example">Dashboard</a>');

    const stranger = await signUp("stranger@example.com");
    expect((await stranger.client.get("/projects/shop.example")).statusCode).toBe(404);
  });

  it("invites a crawl when the project has none", async () => {
    const { client, userId } = await signUp("no-crawls@example.com");
    await api.database.store.db
      .insertInto("reports")
      .values(seedColumns(userId, { url: "https://quiet.example/", score: 40 }))
      .execute();
    const page = await client.get("/projects/quiet.example");
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain("No complete crawl yet");
    expect((await client.get("/projects/unknown.example")).statusCode).toBe(404);
  });
});
