/**
 * A crawl's shared audit on both databases: private by default (a 404 to everyone but its owner), shared with a
 * password (PATCH /api/v1/crawls/{id}, the report's rules: required with privacy 2, wrong ones throttled per
 * client) or publicly; the page holds the site score, fix first, the score over the crawls, what changed and
 * every issue with its pages (paged, on pages of their own), never indexed, with nothing of the owner's account
 * and no link into a private page.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, databaseKinds, startApi, type TestApi } from "../helpers/api.js";
import { type ChangingSite, startChangingSite } from "../helpers/changing-site.js";
import { completeWebCrawl, signedInClient } from "../helpers/crawl-api.js";
import { setBranding } from "../helpers/multipart.js";
import { WebClient } from "../helpers/web-client.js";

const ownerEmail = "agency@example.com";

/** Every link and form target of a page. */
function targets(body: string): string[] {
  return [...body.matchAll(/(?:href|action|src)="([^"]*)"/g)].map((match) => match[1] as string);
}

describe.each(databaseKinds)("a crawl's shared audit on %s", (kind) => {
  let api: TestApi;
  let site: ChangingSite;
  let owner: WebClient;
  let key: string;
  let crawlId: number;

  const crawl = async () => Number((await completeWebCrawl(owner, site.url("/"))).split("/").pop());

  beforeAll(async () => {
    site = await startChangingSite();
    api = await startApi(kind, { PAGEGRADE_CRAWL_DELAY_MS: "0" });
    owner = await signedInClient(api.app, ownerEmail);
    key = await owner.createApiKey();
    site.version = 1;
    await crawl();
    site.version = 2;
    crawlId = await crawl();
  }, 150_000);
  afterAll(async () => {
    await api?.close();
    await site?.close();
  });

  it("is private by default: the owner sees it, anyone else gets a 404", async () => {
    const shown = await call(api, "GET", `/api/v1/crawls/${crawlId}`, { key });
    expect(shown.json().data.privacy).toBe(1);
    expect((await owner.get(`/crawls/${crawlId}/audit`)).statusCode).toBe(200);
    expect((await owner.get(`/crawls/${crawlId}`)).body).toContain(`<a href="/crawls/${crawlId}/audit">`);
    const visitor = new WebClient(api.app, "10.0.0.1");
    expect((await visitor.get(`/crawls/${crawlId}/audit`)).statusCode).toBe(404);
    expect((await visitor.get(`/crawls/${crawlId}/audit/issues/broken-links`)).statusCode).toBe(404);
  });

  it("takes privacy and password by the report's rules, for its owner only", async () => {
    const refused = await call(api, "PATCH", `/api/v1/crawls/${crawlId}`, { key, json: { privacy: 2 } });
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toContain("The password field is required when privacy is 2.");
    const tooLong = await call(api, "PATCH", `/api/v1/crawls/${crawlId}`, {
      key,
      json: { privacy: 3 },
    });
    expect(tooLong.statusCode).toBe(422);
    const stranger = await signedInClient(api.app, "stranger@example.com");
    const strangerKey = await stranger.createApiKey();
    const theirs = await call(api, "PATCH", `/api/v1/crawls/${crawlId}`, {
      key: strangerKey,
      json: { privacy: 0 },
    });
    expect(theirs.statusCode).toBe(404);
    const shared = await call(api, "PATCH", `/api/v1/crawls/${crawlId}`, {
      key,
      json: { privacy: 2, password: "for the client" },
    });
    expect(shared.statusCode).toBe(200);
    expect(shared.json().data.privacy).toBe(2);
    expect(shared.body).not.toContain("argon2");
    expect((await stranger.get(`/crawls/${crawlId}/audit`)).statusCode).toBe(200);
    expect((await stranger.get(`/crawls/${crawlId}/audit`)).body).toContain("This audit is protected");
  });

  it("opens with its password and shows the audit, read-only and never indexed", async () => {
    const client = new WebClient(api.app, "10.0.0.2");
    const form = await client.get(`/crawls/${crawlId}/audit`);
    expect(form.statusCode).toBe(200);
    expect(form.headers["x-robots-tag"]).toBe("noindex");
    expect(form.body).toContain(`action="/crawls/${crawlId}/audit/unlock"`);
    const wrong = await client.post(`/crawls/${crawlId}/audit/unlock`, { password: "guess" });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).toContain("The password is not correct.");
    const right = await client.post(`/crawls/${crawlId}/audit/unlock`, { password: "for the client" });
    expect(right.statusCode).toBe(303);
    expect(right.headers.location).toBe(`/crawls/${crawlId}/audit`);

    const audit = await client.get(`/crawls/${crawlId}/audit`);
    expect(audit.statusCode).toBe(200);
    expect(audit.headers["x-robots-tag"]).toBe("noindex");
    const body = audit.body;
    expect(body).toContain('<meta name="robots" content="noindex">');
    expect(body).toMatch(/Site score <strong>\d+<\/strong>/);
    expect(body).toContain('id="fix-first"');
    expect(body).toContain("Broken links");
    expect(body).toContain("What changed in the latest crawl");
    expect(body).toContain("Site score over the last 2 crawls");
    expect(body).not.toContain(ownerEmail);
    expect(body).not.toContain("Log out");
    // No link into a private page: only the audit's own pages, anchors and the site's assets.
    for (const target of targets(body)) {
      expect(
        target.startsWith(`/crawls/${crawlId}/audit`) ||
          target.startsWith("#") ||
          target.startsWith("/assets/"),
        target,
      ).toBe(true);
    }
    // Fix first comes before the charts and the changes.
    expect(body.indexOf('id="fix-first"')).toBeLessThan(body.indexOf("What changed in the latest crawl"));

    const brokenLinks = await client.get(`/crawls/${crawlId}/audit/issues/broken-links`);
    expect(brokenLinks.statusCode).toBe(200);
    expect(brokenLinks.body).toContain(site.url("/gone2"));
    const imageAlt = await client.get(`/crawls/${crawlId}/audit/issues/image-alt`);
    expect(imageAlt.statusCode).toBe(200);
    expect(imageAlt.body).toContain(site.url("/a"));
    expect(imageAlt.body).not.toContain("/reports/");
    expect((await client.get(`/crawls/${crawlId}/audit/issues/no-such-check`)).statusCode).toBe(404);

    // Changing the password revokes the cookie it gave.
    await call(api, "PATCH", `/api/v1/crawls/${crawlId}`, { key, json: { password: "a new one" } });
    expect((await client.get(`/crawls/${crawlId}/audit`)).body).toContain("This audit is protected");
  });

  it("throttles wrong passwords per client, as a report's", async () => {
    const client = new WebClient(api.app, "10.0.0.3");
    for (let attempt = 0; attempt < 5; attempt++) {
      expect((await client.post(`/crawls/${crawlId}/audit/unlock`, { password: "nope" })).statusCode).toBe(
        401,
      );
    }
    const locked = await client.post(`/crawls/${crawlId}/audit/unlock`, { password: "a new one" });
    expect(locked.statusCode).toBe(429);
    expect(locked.headers["retry-after"]).toBeDefined();
    // Another client is not held back by it.
    const other = new WebClient(api.app, "10.0.0.4");
    expect((await other.post(`/crawls/${crawlId}/audit/unlock`, { password: "a new one" })).statusCode).toBe(
      303,
    );
  });

  it("is open to anyone when public, and still not indexed", async () => {
    const shared = await call(api, "PATCH", `/api/v1/crawls/${crawlId}`, { key, json: { privacy: 0 } });
    expect(shared.statusCode).toBe(200);
    const visitor = new WebClient(api.app, "10.0.0.5");
    const audit = await visitor.get(`/crawls/${crawlId}/audit`);
    expect(audit.statusCode).toBe(200);
    expect(audit.headers["x-robots-tag"]).toBe("noindex");
    expect(audit.body).toContain('id="fix-first"');
    // Back to private: a 404 again.
    await call(api, "PATCH", `/api/v1/crawls/${crawlId}`, { key, json: { privacy: 1 } });
    expect((await visitor.get(`/crawls/${crawlId}/audit`)).statusCode).toBe(404);
  });

  it("shows the owner's brand name and logo instead of pagegrade's", async () => {
    const set = await setBranding(api.app, key, "Acme <Web> Agency");
    expect(set.statusCode).toBe(200);
    await call(api, "PATCH", `/api/v1/crawls/${crawlId}`, { key, json: { privacy: 0 } });
    const audit = await new WebClient(api.app, "10.0.0.6").get(`/crawls/${crawlId}/audit`);
    const header = audit.body.slice(audit.body.indexOf("<header"), audit.body.indexOf("</header>"));
    expect(header).toContain("Acme &#60;Web&#62; Agency");
    expect(header).toContain('src="data:image/png;base64,');
    expect(header).not.toContain("pagegrade");
    expect(audit.body).toContain("<title>Site audit of 127.0.0.1 · Acme &#60;Web&#62; Agency</title>");
    await call(api, "DELETE", "/api/v1/branding", { key });
    await call(api, "PATCH", `/api/v1/crawls/${crawlId}`, { key, json: { privacy: 1 } });
  });
});
