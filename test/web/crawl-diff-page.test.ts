/**
 * The comparison page on both databases: two crawls of a site that changes in known ways, started from the web
 * form; the second crawl's page links to what changed; the comparison shows exactly the expected new and
 * resolved findings, regressed and fixed page checks and added and removed pages, each page linking to its
 * report; the first crawl says there is nothing to compare; a bad `from` is refused; another user gets a 404.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseKinds, startApi, type TestApi } from "../helpers/api.js";
import { type ChangingSite, startChangingSite } from "../helpers/changing-site.js";
import { completeWebCrawl, signedInClient } from "../helpers/crawl-api.js";
import type { WebClient } from "../helpers/web-client.js";

/** The part of the page from the section with this id to the next section. */
function section(body: string, id: string): string {
  const start = body.indexOf(`id="${id}"`);
  expect(start, id).toBeGreaterThan(-1);
  const end = body.indexOf("<section", start);
  return body.slice(start, end === -1 ? undefined : end);
}

/** The paths of the site's pages a part of the page links to (their reports) or names. */
function pathsIn(part: string, origin: string): string[] {
  const linked = [...part.matchAll(/<a href="\/reports\/\d+">([^<]+)<\/a>/g)].map(
    (match) => match[1] as string,
  );
  const named = [...part.matchAll(/<span class="key">([^<]+)<\/span>/g)].map((match) => match[1] as string);
  return [
    ...new Set(
      [...linked, ...named].filter((url) => url.startsWith(origin)).map((url) => new URL(url).pathname),
    ),
  ].sort();
}

describe.each(databaseKinds)("the comparison page on %s", (kind) => {
  let api: TestApi;
  let site: ChangingSite;
  let owner: WebClient;
  let stranger: WebClient;

  beforeAll(async () => {
    site = await startChangingSite();
    api = await startApi(kind, { PAGEGRADE_CRAWL_DELAY_MS: "0" });
    owner = await signedInClient(api.app, "crawler@example.com");
    stranger = await signedInClient(api.app, "other@example.com");
  });
  afterAll(async () => {
    await api.close();
    await site.close();
  });

  const crawl = () => completeWebCrawl(owner, site.url("/"));

  it("shows what changed between two crawls, each page linking to its report", async () => {
    site.version = 1;
    const first = await crawl();
    const none = await owner.get(`${first}/diff`);
    expect(none.statusCode).toBe(200);
    expect(none.body).toContain("There is no earlier complete crawl");

    site.version = 2;
    const second = await crawl();
    expect((await owner.get(second)).body).toContain(
      `<a href="${second}/diff">What changed since the previous crawl</a>`,
    );
    const compared = await owner.get(`${second}/diff`);
    expect(compared.statusCode).toBe(200);
    const body = compared.body;
    const origin = site.server.url;
    expect(body).toContain(`compared with <a href="${first}">`);
    expect(body).toContain("2 high · 0 medium · 0 low");
    // New findings: the new broken link (linked from the home page); resolved: the old one and the shared title.
    // Checks named by their titles, the id only beside them in small type (a site check's and a page check's).
    expect(section(body, "new")).toContain(
      '<strong>Broken links</strong> <code class="muted check-id">broken-links</code>',
    );
    expect(pathsIn(section(body, "new"), origin)).toEqual(["/", "/gone2"]);
    expect(section(body, "resolved")).toContain(
      '<strong>Duplicate titles</strong> <code class="muted check-id">duplicate-title</code>',
    );
    expect(pathsIn(section(body, "resolved"), origin)).toEqual(["/", "/b", "/c", "/gone"]);
    expect(section(body, "resolved")).toContain(`<a href="/reports/`);
    const checks = section(body, "page-checks");
    expect(checks).toContain(
      '<strong>Image alternative text</strong> <code class="muted check-id">image-alt</code>',
    );
    expect(checks).toContain("1 regressed · 1 fixed");
    expect(checks).toMatch(new RegExp(`${origin}/a</a> <span class="muted">pass → fail`));
    expect(checks).toMatch(new RegExp(`${origin}/fixme</a> <span class="muted">fail → pass`));
    const pages = section(body, "pages");
    expect(pathsIn(pages.slice(pages.indexOf("Added"), pages.indexOf("Removed")), origin)).toEqual([
      "/e",
      "/gone2",
    ]);
    expect(pathsIn(pages.slice(pages.indexOf("Removed")), origin)).toEqual(["/d", "/gone"]);
    expect(body).not.toContain("<script");

    const firstId = first.split("/").pop() as string;
    expect((await owner.get(`${second}/diff?from=${firstId}`)).body).toBe(body);
    for (const from of ["abc", "0", second.split("/").pop() as string]) {
      const refused = await owner.get(`${second}/diff?from=${from}`);
      expect(refused.statusCode, from).toBe(422);
      expect(refused.body).toContain("The from crawl must be another complete crawl of");
    }
    expect((await stranger.get(`${second}/diff`)).statusCode).toBe(404);

    // The site again as it was: every section says there is nothing, none is left empty.
    const unchanged = section((await owner.get(`${await crawl()}/diff`)).body, "pages");
    expect(unchanged).toContain("No page was added or removed, and none changed its status or indexability.");
  }, 150_000);
});
