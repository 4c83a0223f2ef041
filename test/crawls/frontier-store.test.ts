/**
 * FrontierStore on SQLite and on PostgreSQL (where the bounds' room is taken before the page's transaction, and
 * `greatest`/`least` stand for SQLite's `max`/`min`): URLs admitted within the crawl's bounds, claims (budget,
 * order, leases, hand-back, requeueing, parts claiming at once, a held row passed over on PostgreSQL), politeness (request starts `delay` apart, pauses, a part's
 * requests sharing a read of the pause), and an analysed
 * page stored with its links and the URLs it adds.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { crawlBounds } from "../../src/crawls/crawl-bounds.js";
import { CrawlRequests, pauseReadFreshMs } from "../../src/crawls/crawl-requests.js";
import type { CrawlPageRow, CrawlRow } from "../../src/crawls/crawl-store.js";
import type { CrawlStores } from "../../src/crawls/crawl-stores.js";
import type { FrontierStore, NewReportStatement } from "../../src/crawls/frontier-store.js";
import { namedPageChecks } from "../../src/crawls/page-check-code-store.js";
import type { PageCheck } from "../../src/crawls/page-checks.js";
import { withNewReport } from "../../src/store/report-store.js";
import { timestamp } from "../../src/timestamps.js";
import { databaseKinds, type TestDatabase } from "../helpers/api.js";
import { crawlStoresOn, runningCrawl, siteUrl } from "../helpers/crawl-rows.js";
import { seedRow } from "../helpers/seed.js";

const later = () => timestamp(new Date(Date.now() + 30_000));
const url = (path: string) => new URL(path, siteUrl).href;

describe.each(databaseKinds)("FrontierStore on %s", (kind) => {
  let database: TestDatabase;
  let stores: CrawlStores;
  let userId: number;

  beforeAll(async () => {
    ({ database, stores, userId } = await crawlStoresOn(kind));
  });
  afterAll(async () => database.drop());

  const rows = async (crawlId: number) =>
    database.store.db
      .selectFrom("crawl_pages")
      .selectAll()
      .where("crawl_id", "=", crawlId)
      .orderBy("id")
      .execute();
  const crawlRow = async (crawl: CrawlRow) => (await stores.crawls.find(userId, crawl.id)) as CrawlRow;
  const claimed = (claim: unknown) => claim as CrawlPageRow;

  describe("claims", () => {
    it("takes the shallowest queued page first, then in the order found, each once", async () => {
      const crawl = await runningCrawl(stores, userId);
      const bounds = crawlBounds(crawl.max_pages);
      await stores.frontier.discover(
        crawl.id,
        [
          { url: url("/deep"), depth: 2 },
          { url: url("/a"), depth: 1 },
          { url: siteUrl, depth: 0 },
          { url: url("/b"), depth: 1 },
        ],
        bounds,
      );
      const order: string[] = [];
      for (;;) {
        const claim = await stores.frontier.claim(crawl.id, 0, later(), true);
        if (claim === undefined) break;
        order.push(claimed(claim).url);
        expect(claimed(claim).state).toBe("fetching");
        expect(claimed(claim).attempts).toBe(1);
      }
      expect(order).toEqual([siteUrl, url("/a"), url("/b"), url("/deep")]);
      expect((await crawlRow(crawl)).reserved).toBe(4);
      expect(await stores.frontier.unfinishedCount(crawl.id)).toBe(4);
    });

    it("gives a page known only from a sitemap only when asked, and not while a page with a depth is fetched", async () => {
      const crawl = await runningCrawl(stores, userId);
      await stores.frontier.discover(
        crawl.id,
        [
          { url: siteUrl, depth: 0 },
          { url: url("/listed"), depth: null, inSitemap: true },
        ],
        crawlBounds(crawl.max_pages),
      );
      const start = claimed(await stores.frontier.claim(crawl.id, 0, later(), true));
      expect(start.url).toBe(siteUrl);
      // The start page is being fetched: its links may give the listed page a depth.
      expect(await stores.frontier.claim(crawl.id, 1, later(), true)).toBeUndefined();
      await stores.frontier.settlePage(start.id, { state: "done", status_code: 200 });
      expect(await stores.frontier.claim(crawl.id, 1, later(), false)).toBeUndefined();
      const listed = claimed(await stores.frontier.claim(crawl.id, 1, later(), true));
      expect(listed).toMatchObject({ url: url("/listed"), depth: null, in_sitemap: 1, claimed_by: 1 });
      // A claim that finds nothing gives its fetch back to the budget.
      expect((await crawlRow(crawl)).reserved).toBe(2);
    });

    it("answers spent once max_pages fetches are taken, cancelled when asked to stop, stopped once ended", async () => {
      const crawl = await runningCrawl(stores, userId, { max_pages: 2 });
      await stores.frontier.discover(
        crawl.id,
        ["/1", "/2", "/3"].map((path) => ({ url: url(path), depth: 1 })),
        crawlBounds(crawl.max_pages),
      );
      claimed(await stores.frontier.claim(crawl.id, 0, later(), true));
      const second = claimed(await stores.frontier.claim(crawl.id, 0, later(), true));
      expect(await stores.frontier.claim(crawl.id, 0, later(), true)).toBe("spent");
      // A page not fetched after all gives its fetch back.
      await stores.frontier.settlePage(second.id, { state: "excluded", excluded: "robots" }, crawl.id);
      expect(claimed(await stores.frontier.claim(crawl.id, 0, later(), true)).url).toBe(url("/3"));
      await stores.crawls.requestCancel(userId, crawl.id, timestamp());
      expect(await stores.frontier.claim(crawl.id, 0, later(), true)).toBe("cancelled");
      await stores.crawls.endRunning(crawl.id, { status: "cancelled" });
      expect(await stores.frontier.claim(crawl.id, 0, later(), true)).toBe("stopped");
    });

    it("claims pages ahead on PostgreSQL within the budget and the part's share of the queue; one on SQLite", async () => {
      const crawl = await runningCrawl(stores, userId, { max_pages: 6, parts: 2 });
      await stores.frontier.discover(
        crawl.id,
        [
          ...Array.from({ length: 8 }, (_, n) => ({ url: url(`/ahead/deep-${n}`), depth: 2 })),
          { url: url("/ahead/near"), depth: 1 },
          { url: url("/ahead/start"), depth: 0 },
        ],
        crawlBounds(crawl.max_pages),
      );
      const paths = (claim: unknown) => (claim as CrawlPageRow[]).map((page) => new URL(page.url).pathname);
      // Ten queued, two parts: a share of five, four at most.
      const first = await stores.frontier.claimSome(crawl.id, 0, later(), true, 4, 2);
      const expectedFirst =
        kind === "postgres"
          ? ["/ahead/start", "/ahead/near", "/ahead/deep-0", "/ahead/deep-1"]
          : ["/ahead/start"];
      expect(paths(first)).toEqual(expectedFirst);
      expect((await crawlRow(crawl)).reserved).toBe(expectedFirst.length);
      const fetching = (await rows(crawl.id)).filter((row) => row.state === "fetching");
      expect(fetching).toHaveLength(expectedFirst.length);
      expect(fetching.every((row) => row.claimed_by === 0 && row.attempts === 1)).toBe(true);
      if (kind === "postgres") {
        // Two fetches left in the budget: two pages, then none.
        expect(paths(await stores.frontier.claimSome(crawl.id, 1, later(), true, 4, 2))).toEqual([
          "/ahead/deep-2",
          "/ahead/deep-3",
        ]);
        expect(await stores.frontier.claimSome(crawl.id, 1, later(), true, 4, 2)).toBe("spent");
        expect((await crawlRow(crawl)).reserved).toBe(6);
        // Renewed together; a hand-back returns each fetch.
        const ids = (first as CrawlPageRow[]).map((page) => page.id);
        expect((await stores.frontier.renewClaim(ids, 0, later())).sort()).toEqual([...ids].sort());
        for (const id of ids.slice(1)) await stores.frontier.handBack(id, crawl.id);
        expect((await crawlRow(crawl)).reserved).toBe(3);
      }
      // Few queued for many parts: one page each, so a small frontier still spreads over every part.
      const small = await runningCrawl(stores, userId, { max_pages: 100, parts: 8 });
      await stores.frontier.discover(
        small.id,
        Array.from({ length: 10 }, (_, n) => ({ url: url(`/few/${n}`), depth: 1 })),
        crawlBounds(small.max_pages),
      );
      expect(paths(await stores.frontier.claimSome(small.id, 0, later(), true, 4, 8))).toEqual(["/few/0"]);
    });

    it("never claims a page twice nor more than max_pages when parts claim at once", async () => {
      const crawl = await runningCrawl(stores, userId, { max_pages: 7 });
      await stores.frontier.discover(
        crawl.id,
        // More than the claims can hold locked at once: every claim finds a queued page it can take.
        Array.from({ length: 40 }, (_, n) => ({ url: url(`/at-once/${n}`), depth: 1 })),
        crawlBounds(crawl.max_pages),
      );
      // On PostgreSQL these run side by side, each on a connection of the pool.
      const claims = await Promise.all(
        Array.from({ length: 16 }, (_, part) => stores.frontier.claim(crawl.id, part, later(), true)),
      );
      const pages = claims.filter((claim) => typeof claim === "object").map(claimed);
      expect(pages).toHaveLength(7);
      expect(new Set(pages.map((page) => page.id)).size).toBe(7);
      expect(claims.filter((claim) => typeof claim !== "object")).toEqual(Array(9).fill("spent"));
      expect((await crawlRow(crawl)).reserved).toBe(7);
      const fetching = (await rows(crawl.id)).filter((row) => row.state === "fetching");
      expect(fetching.map((row) => row.id).sort()).toEqual(pages.map((page) => page.id).sort());
      expect(fetching.every((row) => row.attempts === 1 && row.lease_until !== null)).toBe(true);
    });

    it.runIf(kind === "postgres")(
      "claims through the index of pages not yet done, in a prepared statement's generic plan too",
      async () => {
        const crawl = await runningCrawl(stores, userId);
        const paths = Array.from({ length: 400 }, (_, index) => `/page-${index}`);
        await stores.frontier.discover(
          crawl.id,
          paths.map((path) => ({ url: url(path), depth: 1 })),
          crawlBounds(10_000),
        );
        await database.store.db
          .updateTable("crawl_pages")
          .set({ state: "done" })
          .where("crawl_id", "=", crawl.id)
          .where("url", "not in", [url("/page-398"), url("/page-399")])
          .execute();
        // Migration 043: the index holds the pages not done only.
        const definition = await sql<{
          indexdef: string;
        }>`select indexdef from pg_indexes where schemaname = current_schema() and indexname = 'crawl_pages_state'`.execute(
          database.store.db,
        );
        expect(definition.rows[0]?.indexdef).toMatch(/WHERE \(state <> 'done'::text\)$/);
        // The claim's search names its state as a literal (page-state.ts), so even a generic plan proves the
        // index's condition; a parameter would not.
        const plan = await database.store.db.transaction().execute(async (trx) => {
          await sql`analyze crawl_pages`.execute(trx);
          await sql`set local plan_cache_mode = force_generic_plan`.execute(trx);
          await sql`set local enable_seqscan = off`.execute(trx);
          await sql
            .raw(`prepare claim_literal(integer) as select id from crawl_pages where crawl_id = $1
            and state = 'queued' and depth is not null order by depth, id limit 1`)
            .execute(trx);
          await sql
            .raw(`prepare claim_parameter(integer, text) as select id from crawl_pages where crawl_id = $1
            and state = $2 and depth is not null order by depth, id limit 1`)
            .execute(trx);
          const explain = async (statement: string) =>
            (await sql.raw<{ "QUERY PLAN": string }>(`explain execute ${statement}`).execute(trx)).rows
              .map((row) => row["QUERY PLAN"])
              .join("\n");
          const plans = {
            literal: await explain(`claim_literal(${crawl.id})`),
            parameter: await explain(`claim_parameter(${crawl.id}, 'queued')`),
          };
          await sql`deallocate claim_literal`.execute(trx);
          await sql`deallocate claim_parameter`.execute(trx);
          return plans;
        });
        expect(plan.literal).toContain("crawl_pages_state");
        expect(plan.parameter).not.toContain("crawl_pages_state");
        expect(claimed(await stores.frontier.claim(crawl.id, 0, later(), true)).url).toBe(url("/page-398"));
      },
    );

    it.runIf(kind === "postgres")(
      "passes over a queued page whose row another transaction holds, without waiting for it",
      async () => {
        const crawl = await runningCrawl(stores, userId);
        await stores.frontier.discover(
          crawl.id,
          ["/held", "/free"].map((path) => ({ url: url(path), depth: 1 })),
          crawlBounds(crawl.max_pages),
        );
        const claim = await database.store.db.transaction().execute(async (trx) => {
          // A page's transaction lowering the held URL's depth keeps its row locked until it commits.
          await trx
            .updateTable("crawl_pages")
            .set({ depth: 0 })
            .where("crawl_id", "=", crawl.id)
            .where("url", "=", url("/held"))
            .execute();
          return stores.frontier.claim(crawl.id, 0, later(), true);
        });
        expect(claimed(claim).url).toBe(url("/free"));
        expect((await crawlRow(crawl)).reserved).toBe(1);
        expect(claimed(await stores.frontier.claim(crawl.id, 0, later(), true)).url).toBe(url("/held"));
      },
    );

    it("puts back a part's own claims and any whose lease ran out, with their fetches", async () => {
      const crawl = await runningCrawl(stores, userId);
      await stores.frontier.discover(
        crawl.id,
        ["/mine", "/expired", "/other"].map((path) => ({ url: url(path), depth: 1 })),
        crawlBounds(crawl.max_pages),
      );
      const past = timestamp(new Date(Date.now() - 1_000));
      const mine = claimed(await stores.frontier.claim(crawl.id, 0, later(), true));
      const expired = claimed(await stores.frontier.claim(crawl.id, 1, past, true));
      const other = claimed(await stores.frontier.claim(crawl.id, 2, later(), true));
      await stores.frontier.requeueStale(crawl.id, 0, timestamp());
      const states = new Map((await rows(crawl.id)).map((row) => [row.id, row]));
      expect(states.get(mine.id)).toMatchObject({ state: "queued", claimed_by: null, lease_until: null });
      expect(states.get(expired.id)).toMatchObject({ state: "queued", claimed_by: null });
      expect(states.get(other.id)).toMatchObject({ state: "fetching", claimed_by: 2 });
      expect((await crawlRow(crawl)).reserved).toBe(1);
    });

    it("renews only the claiming part's lease, and a hand-back returns the try and the fetch", async () => {
      const crawl = await runningCrawl(stores, userId);
      await stores.frontier.discover(crawl.id, [{ url: siteUrl, depth: 0 }], crawlBounds(crawl.max_pages));
      const page = claimed(await stores.frontier.claim(crawl.id, 3, later(), true));
      const until = timestamp(new Date(Date.now() + 90_000));
      expect(await stores.frontier.renewClaim([page.id], 4, until)).toEqual([]);
      expect((await rows(crawl.id))[0]?.lease_until).toBe(page.lease_until);
      expect(await stores.frontier.renewClaim([page.id], 3, until)).toEqual([page.id]);
      expect((await rows(crawl.id))[0]?.lease_until).toBe(until);
      await stores.frontier.handBack(page.id, crawl.id);
      expect((await rows(crawl.id))[0]).toMatchObject({ state: "queued", attempts: 0 });
      expect((await crawlRow(crawl)).reserved).toBe(0);
      // A second hand-back of the same page changes nothing.
      await stores.frontier.handBack(page.id, crawl.id);
      expect((await crawlRow(crawl)).reserved).toBe(0);
    });
  });

  describe("admitting URLs", () => {
    it("keeps a URL's smallest depth and its sitemap mark, and stores each URL once", async () => {
      const crawl = await runningCrawl(stores, userId);
      const bounds = crawlBounds(crawl.max_pages);
      await stores.frontier.discover(crawl.id, [{ url: url("/x"), depth: null, inSitemap: true }], bounds);
      await stores.frontier.discover(
        crawl.id,
        [
          { url: url("/x"), depth: 3 },
          { url: url("/x"), depth: 2 },
        ],
        bounds,
      );
      await stores.frontier.discover(crawl.id, [{ url: url("/x"), depth: 4 }], bounds);
      const [row, ...others] = await rows(crawl.id);
      expect(others).toEqual([]);
      expect(row).toMatchObject({ url: url("/x"), depth: 2, in_sitemap: 1, state: "queued" });
    });

    it("lists a URL beyond the depth limit as excluded, and queues it again when found within the limit", async () => {
      const crawl = await runningCrawl(stores, userId, { max_depth: 1 });
      const bounds = crawlBounds(crawl.max_pages);
      await stores.frontier.discover(crawl.id, [{ url: url("/far"), depth: 2, beyondDepth: true }], bounds);
      expect((await rows(crawl.id))[0]).toMatchObject({ state: "excluded", excluded: "limit", depth: 2 });
      await stores.frontier.discover(crawl.id, [{ url: url("/far"), depth: 3, beyondDepth: true }], bounds);
      expect((await rows(crawl.id))[0]).toMatchObject({ state: "excluded", depth: 2 });
      await stores.frontier.discover(crawl.id, [{ url: url("/far"), depth: 1 }], bounds);
      expect((await rows(crawl.id))[0]).toMatchObject({ state: "queued", excluded: null, depth: 1 });
    });

    it("stores no more new URLs than the bound and counts the rest, however they are offered", async () => {
      const crawl = await runningCrawl(stores, userId, { max_pages: 1 });
      const bounds = { urls: 5, linksPerPage: 3, links: 4 };
      const batch = (from: number, count: number) =>
        Array.from({ length: count }, (_, index) => ({ url: url(`/p${from + index}`), depth: 1 }));
      await stores.frontier.discover(crawl.id, batch(0, 4), bounds, 2);
      await stores.frontier.discover(crawl.id, batch(10, 4), bounds);
      // Known URLs are always admitted: their row may only change.
      await stores.frontier.discover(crawl.id, [...batch(0, 2), ...batch(20, 1)], bounds);
      const stored = (await rows(crawl.id)).map((row) => row.url);
      expect(stored).toEqual([url("/p0"), url("/p1"), url("/p10"), url("/p11"), url("/p12")]);
      const row = await crawlRow(crawl);
      expect(row.urls_offered).toBe(2 + 4 + 1);
      expect(row.urls_dropped).toBe(2 + 1 + 1);
    });
  });

  describe("politeness", () => {
    it("starts requests delay apart across parts and never takes a start further off than asked", async () => {
      const crawl = await runningCrawl(stores, userId);
      const now = 1_000_000;
      expect(await stores.frontier.nextRequestAt(crawl.id, 500, now)).toBe(now);
      expect(await stores.frontier.nextRequestAt(crawl.id, 500, now)).toBe(now + 500);
      expect(await stores.frontier.nextRequestAt(crawl.id, 500, now + 100)).toBe(now + 1000);
      // Further off than a part will wait: returned, not taken.
      expect(await stores.frontier.nextRequestAt(crawl.id, 500, now, 100)).toBe(now + 1500);
      expect(await stores.frontier.nextRequestAt(crawl.id, 500, now)).toBe(now + 1500);
      expect((await crawlRow(crawl)).next_request_ms).toBe(now + 2000);
    });

    it("honours a pause, with a delay or none, and a pause only ever moves the next start later", async () => {
      const crawl = await runningCrawl(stores, userId);
      const now = 2_000_000;
      await stores.frontier.pauseRequests(crawl.id, now + 5_000);
      await stores.frontier.pauseRequests(crawl.id, now + 1_000);
      expect(await stores.frontier.nextRequestAt(crawl.id, 0, now)).toBe(now + 5_000);
      expect(await stores.frontier.nextRequestAt(crawl.id, 0, now + 6_000)).toBe(now + 6_000);
      expect(await stores.frontier.nextRequestAt(crawl.id, 250, now)).toBe(now + 5_000);
      expect(await stores.frontier.nextRequestAt(crawl.id, 250, now)).toBe(now + 5_250);
    });

    it("with no delay, a part's requests share one read of the pause for a moment; its own pause counts at once", async () => {
      const crawl = await runningCrawl(stores, userId);
      let reads = 0;
      const frontier = Object.create(stores.frontier) as FrontierStore;
      frontier.nextRequestAt = (...args: Parameters<FrontierStore["nextRequestAt"]>) => {
        reads++;
        return stores.frontier.nextRequestAt(...args);
      };
      let delayMs = 0;
      const requests = new CrawlRequests(crawl, frontier, () => delayMs, {});
      const page = new URL(url("/p0"));
      for (let request = 0; request < 3; request++) (await requests.turn(page)).done();
      expect(reads).toBe(1);
      // Another part's pause is read once the last read is older than pauseReadFreshMs.
      await stores.frontier.pauseRequests(crawl.id, Date.now() + 60_000);
      await new Promise((resolve) => setTimeout(resolve, pauseReadFreshMs + 10));
      expect(await requests.nextStartMs()).toBeGreaterThan(Date.now() + 50_000);
      expect(reads).toBe(2);
      // This part's own pause, at once and without a read.
      const other = new CrawlRequests(crawl, frontier, () => delayMs, {});
      const before = await other.nextStartMs();
      other.paused(before + 90_000);
      expect(await other.nextStartMs()).toBe(before + 90_000);
      expect(reads).toBe(3);
      // With a delay, every check reads the crawl's row.
      delayMs = 10;
      await other.nextStartMs();
      await other.nextStartMs();
      expect(reads).toBe(5);
    });
  });

  describe("an analysed page", () => {
    it("is stored with its facts, its links and checks (replacing earlier ones) and the URLs it adds, within the bounds", async () => {
      const crawl = await runningCrawl(stores, userId);
      await stores.frontier.discover(crawl.id, [{ url: siteUrl, depth: 0 }], crawlBounds(crawl.max_pages));
      const page = claimed(await stores.frontier.claim(crawl.id, 0, later(), true));
      const bounds = { urls: 3, linksPerPage: 2, links: 10 };
      const links = [url("/a"), url("/b"), url("/c")].map((to) => ({ to, nofollow: to.endsWith("/b") }));
      const commitSettings: unknown[] = [];
      const store = (reportId: number, checks: PageCheck[]) =>
        stores.frontier.completePage(
          crawl.id,
          page,
          { status_code: 200, title: "Home", score: 91, result: "good", outlinks: links.length },
          { links, discovered: links.map((link) => ({ url: link.to, depth: 1 })), bounds, checks },
          async (trx) => {
            if (kind === "postgres") {
              commitSettings.push((await sql`show synchronous_commit`.execute(trx)).rows[0]);
            }
            return { id: reportId };
          },
        );
      await store(41, [
        { check: "title", status: "fail" },
        { check: "h1", status: "warn" },
      ]);
      await store(42, [{ check: "h1", status: "fail" }]);
      // On PostgreSQL the page's transaction commits without waiting for the WAL's flush (flushes-later.ts).
      if (kind === "postgres") {
        expect(commitSettings).toEqual([{ synchronous_commit: "off" }, { synchronous_commit: "off" }]);
      }
      const checks = await namedPageChecks(database.store.db, crawl.id);
      expect(checks).toEqual([{ page_id: page.id, check_id: "h1", status: "fail", template: "/" }]);
      const [start, ...found] = await rows(crawl.id);
      expect(start).toMatchObject({ state: "done", report_id: 42, title: "Home", score: 91, outlinks: 3 });
      // The bound of three URLs holds the start page and two of the three links.
      expect(found.map((row) => [row.url, row.depth, row.state])).toEqual([
        [url("/a"), 1, "queued"],
        [url("/b"), 1, "queued"],
      ]);
      const recorded = await database.store.db
        .selectFrom("crawl_links")
        .innerJoin("crawl_pages as source", "source.id", "crawl_links.from_page")
        .select(["source.url as from_url", "to_url", "nofollow"])
        .where("crawl_links.crawl_id", "=", crawl.id)
        .orderBy("to_url")
        .execute();
      expect(recorded).toEqual([
        { from_url: siteUrl, to_url: url("/a"), nofollow: 0 },
        { from_url: siteUrl, to_url: url("/b"), nofollow: 1 },
      ]);
      // The links name their source by the page's id (migration 042); listed, the source is the page's URL.
      const listed = await stores.links.list(crawl.id, {}, { limit: 10, offset: 0 });
      expect(listed.map((link) => [link.from_url, link.to_url, link.status_code])).toEqual([
        [siteUrl, url("/a"), null],
        [siteUrl, url("/b"), null],
      ]);
      expect(await stores.links.list(crawl.id, { from: siteUrl }, { limit: 10, offset: 0 })).toEqual(listed);
      const row = await crawlRow(crawl);
      expect(row.links_offered).toBe(4);
      expect(row.links_dropped).toBe(2);
    });

    it("counts the links the analysis left out of a page as dropped", async () => {
      const crawl = await runningCrawl(stores, userId);
      await stores.frontier.discover(crawl.id, [{ url: siteUrl, depth: 0 }], crawlBounds(crawl.max_pages));
      const page = claimed(await stores.frontier.claim(crawl.id, 0, later(), true));
      const links = [{ to: url("/a"), nofollow: false }];
      await stores.frontier.completePage(
        crawl.id,
        page,
        { status_code: 200, title: "Home", score: 91, result: "good", outlinks: 6 },
        {
          links,
          linksLeftOut: 5,
          discovered: [{ url: url("/a"), depth: 1 }],
          bounds: crawlBounds(crawl.max_pages),
        },
        async () => ({ id: 43 }),
      );
      const row = await crawlRow(crawl);
      expect(row.links_offered).toBe(1);
      expect(row.links_dropped).toBe(5);
    });

    it("leaves nothing of a page whose report cannot be stored", async () => {
      const crawl = await runningCrawl(stores, userId);
      await stores.frontier.discover(crawl.id, [{ url: siteUrl, depth: 0 }], crawlBounds(crawl.max_pages));
      const page = claimed(await stores.frontier.claim(crawl.id, 0, later(), true));
      const written = stores.frontier.completePage(
        crawl.id,
        page,
        { status_code: 200 },
        {
          links: [{ to: url("/a"), nofollow: false }],
          discovered: [{ url: url("/a"), depth: 1 }],
          bounds: crawlBounds(10),
        },
        async () => {
          throw new Error("the report could not be stored");
        },
      );
      await expect(written).rejects.toThrow("the report could not be stored");
      const [start, ...others] = await rows(crawl.id);
      expect(others).toEqual([]);
      expect(start).toMatchObject({ state: "fetching", status_code: null, report_id: null });
      const links = await database.store.db
        .selectFrom("crawl_links")
        .select("to_url")
        .where("crawl_id", "=", crawl.id)
        .execute();
      expect(links).toEqual([]);
    });

    /** A claimed start page of a new running crawl, and how it is completed with a link, a URL and a check. */
    const claimedStart = async () => {
      const crawl = await runningCrawl(stores, userId);
      await stores.frontier.discover(crawl.id, [{ url: siteUrl, depth: 0 }], crawlBounds(crawl.max_pages));
      const page = claimed(await stores.frontier.claim(crawl.id, 0, later(), true));
      const complete = () =>
        stores.frontier.completePage(
          crawl.id,
          page,
          { status_code: 200 },
          {
            links: [{ to: url("/a"), nofollow: false }],
            discovered: [{ url: url("/a"), depth: 1 }],
            bounds: crawlBounds(10),
            checks: [{ check: "title", status: "fail" }],
          },
          async () => ({ id: 1 }),
        );
      return { crawl, complete };
    };
    /** The crawl's rows in its pages, links and page checks. */
    const rowCounts = async (crawlId: number) =>
      Promise.all(
        (["crawl_pages", "crawl_links", "crawl_page_checks"] as const).map(async (table) => {
          const { n } = await database.store.db
            .selectFrom(table)
            .select(sql<number>`count(*)`.as("n"))
            .where("crawl_id", "=", crawlId)
            .executeTakeFirstOrThrow();
          return Number(n);
        }),
      );

    it("stores nothing for a crawl deleted while the page was analysed", async () => {
      const { crawl, complete } = await claimedStart();
      expect(await stores.crawls.delete(userId, crawl.id)).toBe(true);
      await expect(complete()).rejects.toThrow();
      expect(await rowCounts(crawl.id)).toEqual([0, 0, 0]);
    });

    it("goes with its crawl: deleting the crawl removes its pages, links and page checks", async () => {
      const { crawl, complete } = await claimedStart();
      await complete();
      expect(await rowCounts(crawl.id)).toEqual([2, 1, 1]);
      expect(await stores.crawls.delete(userId, crawl.id)).toBe(true);
      expect(await rowCounts(crawl.id)).toEqual([0, 0, 0]);
    });

    it.runIf(kind === "postgres")(
      "takes the crawl's row lock once per page, not for every row it inserts (no foreign key to crawls)",
      async () => {
        // A foreign key's check locks the referenced row for each inserted row; with the crawl's row updated by
        // every claim, those locks made PostgreSQL's multixacts the crawl's bottleneck (migration 028).
        const { rows: keys } = await sql<{ name: string }>`
          select conrelid::regclass::text as name from pg_constraint
          where contype = 'f' and confrelid = 'crawls'::regclass
            and conrelid in ('crawl_pages'::regclass, 'crawl_links'::regclass, 'crawl_page_checks'::regclass)`.execute(
          database.store.db,
        );
        expect(keys).toEqual([]);
      },
    );

    it.runIf(kind === "postgres")(
      "is written again when PostgreSQL ends its transaction to break a deadlock with another page's",
      async () => {
        const crawl = await runningCrawl(stores, userId);
        const bounds = crawlBounds(crawl.max_pages);
        await stores.frontier.discover(
          crawl.id,
          [
            { url: siteUrl, depth: 0 },
            { url: url("/b"), depth: 1 },
            { url: url("/x"), depth: 3 },
            { url: url("/y"), depth: 3 },
          ],
          bounds,
        );
        const first = claimed(await stores.frontier.claim(crawl.id, 0, later(), true));
        const second = claimed(await stores.frontier.claim(crawl.id, 1, later(), true));
        // Each page's transaction locks the row the other then gives a lower depth, once both hold theirs:
        // a deadlock every time, which PostgreSQL breaks by ending one of them.
        let arrived = 0;
        let bothHoldALock = () => {};
        const together = new Promise<void>((resolve) => {
          bothHoldALock = resolve;
        });
        const tries = { first: 0, second: 0 };
        const store = (
          page: CrawlPageRow,
          locks: string,
          lowers: string,
          depth: number,
          name: keyof typeof tries,
        ) =>
          stores.frontier.completePage(
            crawl.id,
            page,
            { status_code: 200 },
            { links: [], discovered: [{ url: url(lowers), depth }], bounds },
            async (trx) => {
              tries[name]++;
              await trx
                .selectFrom("crawl_pages")
                .select("id")
                .where("crawl_id", "=", crawl.id)
                .where("url", "=", url(locks))
                .forUpdate()
                .execute();
              if (++arrived === 2) bothHoldALock();
              await together;
              return { id: page.id };
            },
          );
        await Promise.all([store(first, "/y", "/x", 1, "first"), store(second, "/x", "/y", 2, "second")]);
        // At least one page ran again. A retry can meet the winner still holding its lock and deadlock once more
        // on a loaded machine (the retry no longer waits for the other), so more tries are no fault.
        expect(tries.first + tries.second).toBeGreaterThanOrEqual(3);
        const byUrl = new Map((await rows(crawl.id)).map((row) => [row.url, row]));
        expect(byUrl.get(siteUrl)?.state).toBe("done");
        expect(byUrl.get(url("/b"))?.state).toBe("done");
        expect([byUrl.get(url("/x"))?.depth, byUrl.get(url("/y"))?.depth]).toEqual([1, 2]);
      },
    );

    describe.runIf(kind === "postgres")("making a new report, on PostgreSQL in one statement", () => {
      /** How the page's new report is written in its statement (as the crawler's `CrawlPageReports` does). */
      const newReport =
        (pageUrl: string): NewReportStatement =>
        (statement, owner) =>
          withNewReport(
            statement,
            seedRow(userId, { url: pageUrl, score: 77 }),
            "crawl",
            Buffer.from("{}"),
            owner,
          );
      const noTransaction = async () => {
        throw new Error("the page's transaction was used");
      };
      const reportsOf = (pageUrl: string) =>
        database.store.db
          .selectFrom("reports")
          .innerJoin("analyses", "analyses.id", "reports.analysis_id")
          .select([
            "reports.id",
            "reports.user_id",
            "reports.analyses",
            "reports.score",
            "analyses.report_id",
            "analyses.user_id as analysis_user_id",
            "analyses.trigger",
          ])
          .where("reports.url", "=", pageUrl)
          .orderBy("reports.id")
          .execute();

      it("stores the report, its analysis, the page's links, checks and URLs, and marks the page done", async () => {
        const pageUrl = url("/one-statement");
        const crawl = await runningCrawl(stores, userId);
        await stores.frontier.discover(crawl.id, [{ url: pageUrl, depth: 0 }], crawlBounds(crawl.max_pages));
        const page = claimed(await stores.frontier.claim(crawl.id, 0, later(), true));
        let transactions = 0;
        const complete = (links: string[], checks: PageCheck[]) =>
          stores.frontier.completePage(
            crawl.id,
            page,
            { status_code: 200, title: "One", score: 77, result: "decent", outlinks: links.length },
            {
              links: links.map((to) => ({ to, nofollow: false, anchor: `to ${to}` })),
              // The page's own URL among them: a statement may not write its row twice.
              discovered: [...links, pageUrl].map((to) => ({ url: to, depth: 1 })),
              bounds: crawlBounds(10),
              checks,
            },
            async () => {
              transactions++;
              return { id: (await reportsOf(pageUrl))[0]?.id ?? 0 };
            },
            newReport(pageUrl),
          );
        await complete(
          [url("/x"), url("/y")],
          [
            { check: "title", status: "fail" },
            { check: "h1", status: "warn" },
          ],
        );
        expect(transactions).toBe(0);
        // Completed again with other checks (its claim ran out while it was stored, and it has a report of its
        // own since): the links and checks are replaced, still in one statement.
        await complete([url("/w")], [{ check: "canonical", status: "fail" }]);
        expect(transactions).toBe(0);
        // Again with a check stored before: the page's one row of checks is replaced, still in one statement.
        await complete([url("/z")], [{ check: "canonical", status: "warn" }]);
        expect(transactions).toBe(0);
        expect(await namedPageChecks(database.store.db, crawl.id)).toHaveLength(1);
        // Again with none: the row goes.
        await complete([url("/z")], []);
        expect(transactions).toBe(0);
        expect(await namedPageChecks(database.store.db, crawl.id)).toEqual([]);
        await complete([url("/z")], [{ check: "canonical", status: "warn" }]);
        expect(transactions).toBe(0);
        const reports = await reportsOf(pageUrl);
        expect(reports).toHaveLength(5);
        for (const report of reports) {
          expect(report).toMatchObject({ user_id: userId, analyses: 1, score: 77, trigger: "crawl" });
          expect(report.report_id).toBe(report.id);
          expect(report.analysis_user_id).toBe(userId);
        }
        const [start, ...found] = await rows(crawl.id);
        expect(start).toMatchObject({ url: pageUrl, depth: 0, state: "done", title: "One", outlinks: 1 });
        expect(start?.report_id).toBe(reports[4]?.id);
        expect(found.map((row) => [row.url, row.depth, row.state])).toEqual([
          [url("/x"), 1, "queued"],
          [url("/y"), 1, "queued"],
          [url("/w"), 1, "queued"],
          [url("/z"), 1, "queued"],
        ]);
        const links = await database.store.db
          .selectFrom("crawl_links")
          .innerJoin("crawl_pages as source", "source.id", "crawl_links.from_page")
          .select(["source.url as from_url", "to_url", "anchor"])
          .where("crawl_links.crawl_id", "=", crawl.id)
          .execute();
        expect(links).toEqual([{ from_url: pageUrl, to_url: url("/z"), anchor: `to ${url("/z")}` }]);
        const checks = await namedPageChecks(database.store.db, crawl.id);
        expect(checks.map(({ check_id, status }) => ({ check_id, status }))).toEqual([
          { check_id: "canonical", status: "warn" },
        ]);
      });

      it("fails whole, storing no report, for a crawl deleted while the page was analysed", async () => {
        const pageUrl = url("/deleted-meanwhile");
        const crawl = await runningCrawl(stores, userId);
        await stores.frontier.discover(crawl.id, [{ url: pageUrl, depth: 0 }], crawlBounds(crawl.max_pages));
        const page = claimed(await stores.frontier.claim(crawl.id, 0, later(), true));
        expect(await stores.crawls.delete(userId, crawl.id)).toBe(true);
        const written = stores.frontier.completePage(
          crawl.id,
          page,
          { status_code: 200 },
          {
            links: [{ to: url("/a"), nofollow: false }],
            discovered: [{ url: url("/a"), depth: 1 }],
            bounds: crawlBounds(10),
            checks: [{ check: "title", status: "fail" }],
          },
          noTransaction,
          newReport(pageUrl),
        );
        await expect(written).rejects.toThrow(
          `Crawl ${crawl.id} was deleted while its page ${page.id} was analysed.`,
        );
        expect(await reportsOf(pageUrl)).toEqual([]);
        expect(await rowCounts(crawl.id)).toEqual([0, 0, 0]);
      });
    });

    it("excludes what is left queued once the budget is spent", async () => {
      const crawl = await runningCrawl(stores, userId);
      await stores.frontier.discover(
        crawl.id,
        ["/q1", "/q2"].map((path) => ({ url: url(path), depth: 1 })),
        crawlBounds(crawl.max_pages),
      );
      const page = claimed(await stores.frontier.claim(crawl.id, 0, later(), true));
      await stores.frontier.excludeQueued(crawl.id);
      const byUrl = new Map((await rows(crawl.id)).map((row) => [row.url, row]));
      expect(byUrl.get(page.url)?.state).toBe("fetching");
      expect(byUrl.get(url("/q2"))).toMatchObject({ state: "excluded", excluded: "limit" });
    });
  });
});
