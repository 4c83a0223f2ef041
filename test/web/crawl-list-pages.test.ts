/**
 * The crawl form's list mode and extraction rules, without JavaScript: a pasted list and an uploaded text file
 * (a multipart form, as a browser sends it with a file input) each start a crawl of those URLs only; bad lists
 * and bad rules are refused with the service's message (422) and the form keeps what was typed; the crawl's
 * page and its pages CSV show one column per rule; another user's crawl is a 404; a forged form is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApi, type TestApi } from "../helpers/api.js";
import { crawlTestSettings, endedCrawlPage, testPage as page, signedInClient } from "../helpers/crawl-api.js";
import { html, type LocalServer, startServer } from "../helpers/local-server.js";
import type { WebClient } from "../helpers/web-client.js";

describe("crawl form: lists and extraction", () => {
  let api: TestApi;
  let site: LocalServer;
  let owner: WebClient;
  let stranger: WebClient;

  beforeAll(async () => {
    site = await startServer({
      "/": html(page("Home", '<a href="/one">One</a> <a href="/two">Two</a> <a href="/three">Three</a>')),
      "/one": html(page("One", '<span class="price">€ 1</span> <a href="/three">Three</a>')),
      "/two": html(page("Two", '<span class="price">€ 2</span>')),
      "/three": html(page("Three", '<span class="price">€ 3</span>')),
    });
    api = await startApi("sqlite", crawlTestSettings);
    owner = await signedInClient(api.app, "lists@example.com");
    stranger = await signedInClient(api.app, "other@example.com");
  });
  afterAll(async () => {
    await api.close();
    await site.close();
  });

  const finished = (path: string) => endedCrawlPage(owner, path);

  it("offers a list textarea, a file upload and extraction rules in a multipart form", async () => {
    const form = (await owner.get("/crawls")).body;
    expect(form).toContain('enctype="multipart/form-data"');
    expect(form).toContain('<textarea id="urls" name="urls"');
    expect(form).toContain('<input id="urls_file" name="urls_file" type="file"');
    expect(form).toContain('<textarea id="extract" name="extract"');
  });

  it("crawls a pasted list only, and shows the extracted values as columns", async () => {
    const started = await owner.postMultipart("/crawls", {
      url: "",
      urls: `${site.url}/one\r\n${site.url}/two\r\n`,
      max_pages: "10",
      max_depth: "3",
      mode: "raw",
      extract: JSON.stringify([{ name: "price", selector: ".price" }]),
    });
    expect(started.statusCode, started.body).toBe(303);
    const path = started.headers.location as string;
    const done = await finished(path);
    expect(done.body).toContain("<h2>Complete</h2>");
    expect(done.body).toContain("a list of 2 URLs");
    expect(done.body).toContain('<th scope="col" class="extracted">price</th>');
    expect(done.body).toMatch(/<td data-label="price" class="extracted">€ 1<\/td>/);
    expect(done.body).toMatch(/<td data-label="price" class="extracted">€ 2<\/td>/);
    // Linked from /one, but not listed: never fetched, not even a row of the pages table (only its link shows).
    const table = done.body.slice(done.body.indexOf('id="pages"'), done.body.indexOf('id="links"'));
    expect(table).toContain(`${site.url}/two`);
    expect(table).not.toContain(`${site.url}/three`);
    const csv = await owner.get(`${path}/pages.csv`);
    expect(csv.body.split("\r\n")[0]?.endsWith(",error,price")).toBe(true);
    expect(csv.body).toContain(",€ 2\r\n");
    expect((await stranger.get(path)).statusCode).toBe(404);
    expect((await stranger.get(`${path}/pages.csv`)).statusCode).toBe(404);
  });

  it("crawls the URLs of an uploaded text file", async () => {
    const started = await owner.postMultipart(
      "/crawls",
      { url: "", urls: "", max_pages: "10", max_depth: "3", mode: "raw", extract: "" },
      {
        urls_file: { name: "urls.txt", type: "text/plain", content: `${site.url}/three\n${site.url}/two\n` },
      },
    );
    expect(started.statusCode, started.body).toBe(303);
    const done = await finished(started.headers.location as string);
    expect(done.body).toContain("a list of 2 URLs");
    expect(done.body).toContain(`${site.url}/three`);
    expect(done.body).not.toContain(`${site.url}/one`);
  });

  it("refuses bad lists and bad rules with the service's message, keeping what was typed", async () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ urls: `${site.url}/one\nhttps://elsewhere.example/` }, "must be in one project"],
      [{ urls: "not a url" }, "Line 1 of the urls field"],
      [{ urls: `${site.url}/one\n${site.url}/two`, max_pages: "1" }, "a crawl fetches at most 1 (max_pages)"],
      [{ url: `${site.url}/`, urls: `${site.url}/one` }, "not both"],
      [
        { url: `${site.url}/`, extract: '[{"name": "x", "regex": "(a+)+$"}]' },
        "could backtrack without bound",
      ],
      [{ url: `${site.url}/`, extract: '[{"name": "x", "selector": "p[["}]' }, "not a valid CSS selector"],
      [{ url: `${site.url}/`, extract: "[1, 2" }, "must be a JSON array"],
    ];
    for (const [fields, words] of cases) {
      const refused = await owner.postMultipart("/crawls", { url: "", max_pages: "10", ...fields });
      expect(refused.statusCode, words).toBe(422);
      expect(refused.body).toContain(words);
    }
    const kept = await owner.postMultipart("/crawls", {
      url: "",
      urls: "not a url",
      extract: '[{"name":"p"}]',
    });
    expect(kept.body).toContain(">not a url</textarea>");
  });

  it("refuses a multipart form without its CSRF token, and a file larger than a list may be", async () => {
    const forged = await api.app.inject({
      method: "POST",
      url: "/crawls",
      headers: {
        cookie: [...owner.cookies].map(([name, value]) => `${name}=${value}`).join("; "),
        "content-type": "multipart/form-data; boundary=x",
      },
      payload: `--x\r\nContent-Disposition: form-data; name="urls"\r\n\r\n${site.url}/one\r\n--x--\r\n`,
    });
    expect(forged.statusCode).toBe(403);
    const huge = await owner.postMultipart(
      "/crawls",
      { url: "" },
      { urls_file: { name: "urls.txt", type: "text/plain", content: `${site.url}/x\n`.repeat(60_000) } },
    );
    expect(huge.statusCode).toBe(413);
    expect(huge.body).not.toContain("Error:");
  });
});
