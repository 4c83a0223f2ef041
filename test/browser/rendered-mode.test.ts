/**
 * Rendered mode through the API with Debian's Chromium: a page whose scripts change its title, add links, log
 * an error and ask for a missing image is analysed as the browser sees it — the rendered-only checks judge it,
 * the analysis records its mode, and its screenshot is served to the owner only. A crawl in rendered mode
 * follows the links the scripts added, and its extraction rules read the rendered document.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, startApi, type TestApi } from "../helpers/api.js";
import { html, type LocalServer, startServer } from "../helpers/local-server.js";

const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Served title</title>
<meta name="viewport" content="width=device-width"></head>
<body><h1>Bicycle repair</h1><p>Wheels, chains and brakes, repaired at home.</p>
<img src="/missing.png" alt="A wheel" width="100" height="100">
<script>
  document.title = "Title set by a script";
  for (const path of ["/a", "/b", "/c"]) {
    const link = document.createElement("a");
    link.href = path;
    link.textContent = "More about " + path;
    document.body.append(link);
  }
  console.error("something went wrong");
</script></body></html>`;

describe("rendered mode through the API", () => {
  let api: TestApi;
  let site: LocalServer;
  let key: string;
  let other: string;

  beforeAll(async () => {
    const linked = html(
      '<!doctype html><html lang="en"><head><title>Linked page</title></head><body><h1>Linked</h1></body></html>',
    );
    site = await startServer({ "/": html(page), "/a": linked, "/b": linked, "/c": linked });
    api = await startApi("sqlite");
    key = await api.newUser();
    other = await api.newUser();
  });
  afterAll(async () => {
    await api.close();
    await site.close();
  });

  it("judges the page as the browser rendered it, and serves its screenshot to its owner", async () => {
    const response = await call(api, "POST", "/api/v1/reports", {
      key,
      form: { url: `${site.url}/`, mode: "rendered" },
    });
    expect(response.statusCode).toBe(201);
    const report = response.json().data;
    expect(report.mode).toBe("rendered");
    const results = report.results;
    expect(results["rendering-changes"]).toMatchObject({ status: "fail" });
    expect(results["rendering-changes"].details.items).toEqual(
      expect.arrayContaining([{ fact: "title", raw: "Served title", rendered: "Title set by a script" }]),
    );
    expect(results["console-errors"]).toMatchObject({ status: "warn", value: 1 });
    expect(results["failed-requests"]).toMatchObject({ status: "warn" });
    expect(JSON.stringify(results["failed-requests"].details.items)).toContain("/missing.png");
    for (const metric of ["largest-contentful-paint", "first-contentful-paint", "cumulative-layout-shift"]) {
      expect(results[metric].status, metric).not.toBe("na");
      expect(typeof results[metric].value, metric).toBe("number");
    }
    // The title check reads the rendered document.
    expect(results.title.message).toContain("Title set by a script");

    const history = (await call(api, "GET", `/api/v1/reports/${report.id}/analyses`, { key })).json().data;
    expect(history[0]).toMatchObject({ mode: "rendered" });

    const shot = await api.app.inject({
      method: "GET",
      url: `/api/v1/reports/${report.id}/screenshot`,
      headers: { authorization: `Bearer ${key}` },
    });
    expect(shot.statusCode).toBe(200);
    expect(shot.headers["content-type"]).toBe("image/webp");
    expect(shot.rawPayload.subarray(0, 4).toString("latin1")).toBe("RIFF");
    expect(shot.rawPayload.subarray(8, 12).toString("latin1")).toBe("WEBP");
    expect(
      (await call(api, "GET", `/api/v1/reports/${report.id}/screenshot`, { key: other })).statusCode,
    ).toBe(404);

    // The report page shows the screenshot and the lab metrics once the report is public, and serves the
    // screenshot under the page's own access rule.
    const hidden = await api.app.inject({ method: "GET", url: `/reports/${report.id}/screenshot` });
    expect(hidden.statusCode).toBe(404);
    await call(api, "PATCH", `/api/v1/reports/${report.id}`, { key, form: { privacy: "0" } });
    const html = (await api.app.inject({ method: "GET", url: `/reports/${report.id}` })).body;
    expect(html).toContain(`<img class="screenshot" src="/reports/${report.id}/screenshot"`);
    expect(html).toContain("Largest Contentful Paint");
    const visible = await api.app.inject({ method: "GET", url: `/reports/${report.id}/screenshot` });
    expect(visible.statusCode).toBe(200);
    expect(visible.headers["content-type"]).toBe("image/webp");
  });

  it("has no screenshot for a raw analysis, and its rendered-only checks are not applicable", async () => {
    const report = (await call(api, "POST", "/api/v1/reports", { key, form: { url: `${site.url}/` } })).json()
      .data;
    expect(report.mode).toBe("raw");
    for (const id of ["rendering-changes", "console-errors", "failed-requests", "largest-contentful-paint"]) {
      expect(report.results[id].status, id).toBe("na");
    }
    expect((await call(api, "GET", `/api/v1/reports/${report.id}/screenshot`, { key })).statusCode).toBe(404);
  });

  it("crawls in rendered mode, following the links scripts added", async () => {
    const created = await call(api, "POST", "/api/v1/crawls", {
      key,
      json: { url: `${site.url}/`, mode: "rendered", sitemaps: 0 },
    });
    expect(created.statusCode).toBe(202);
    const id = created.json().data.id;
    let crawl: { status: string; mode: string; pages: { analysed: number } } = {
      status: "queued",
      mode: "",
      pages: { analysed: 0 },
    };
    for (let waited = 0; waited < 60_000 && ["queued", "running"].includes(crawl.status); waited += 250) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      crawl = (await call(api, "GET", `/api/v1/crawls/${id}`, { key })).json().data;
    }
    expect(crawl).toMatchObject({ status: "complete", mode: "rendered" });
    // The served HTML has no links: only the rendered document leads to /a, /b and /c.
    expect(crawl.pages.analysed).toBe(4);
    const pages = (await call(api, "GET", `/api/v1/crawls/${id}/pages`, { key })).json().data as Array<{
      url: string;
      report_id: number;
    }>;
    const linkedPage = pages.find((entry) => entry.url.endsWith("/a")) as { report_id: number };
    const report = (await call(api, "GET", `/api/v1/reports/${linkedPage.report_id}`, { key })).json().data;
    expect(report.mode).toBe("rendered");
  });

  it("extracts from the rendered document in a rendered list crawl", async () => {
    const created = await call(api, "POST", "/api/v1/crawls", {
      key,
      json: {
        urls: [`${site.url}/`],
        mode: "rendered",
        extract: [
          { name: "title", selector: "title" },
          { name: "added", regex: "More about (/[a-z])" },
        ],
      },
    });
    expect(created.statusCode).toBe(202);
    const id = created.json().data.id;
    let status = "queued";
    for (let waited = 0; waited < 60_000 && ["queued", "running"].includes(status); waited += 250) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      status = (await call(api, "GET", `/api/v1/crawls/${id}`, { key })).json().data.status;
    }
    expect(status).toBe("complete");
    const pages = (await call(api, "GET", `/api/v1/crawls/${id}/pages`, { key })).json().data;
    // Only the listed page, and what its scripts wrote: the served HTML has neither value.
    expect(pages).toHaveLength(1);
    expect(pages[0].extracted).toEqual({ title: ["Title set by a script"], added: ["/a", "/b", "/c"] });
  });
});
