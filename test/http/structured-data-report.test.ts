/**
 * A page with known structured-data defects, analysed end to end through the API, the web report page and the
 * pagegrade command: the same verdicts and evidence on each.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, startApi, type TestApi } from "../helpers/api.js";
import { html, type LocalServer, startServer } from "../helpers/local-server.js";
import { WebClient } from "../helpers/web-client.js";

const product = {
  "@context": "https://schema.org",
  "@type": "Product",
  name: "Bicycle pump",
  datePublised: "2024-05-17",
  offers: {
    "@type": "Offer",
    price: "€19",
    priceCurrency: "EUR",
    availability: "https://schema.org/InStock",
  },
};
const brokenBlock =
  '<script type="application/ld+json">{"@context": "https://schema.org", "@type": "Organization",}</script>';
const page = `<!doctype html><html lang="en"><head><title>Bicycle pump</title>
<script type="application/ld+json">${JSON.stringify(product)}</script>
${brokenBlock}
</head><body><h1>Bicycle pump</h1>
<div itemscope itemtype="https://schema.org/Event"><span itemprop="name">Repair café</span><time itemprop="startDate" datetime="next week">soon</time><span itemprop="location">Town hall</span></div>
</body></html>`;
const fixedPage = page.replace(brokenBlock, "");

describe("structured-data defects through the API, the web report and the command", () => {
  let api: TestApi;
  let site: LocalServer;
  let key: string;

  beforeAll(async () => {
    site = await startServer({ "/": html(page), "/fixed": html(fixedPage) });
    api = await startApi("sqlite");
    key = await api.newUser("structured@example.com");
  });
  afterAll(async () => {
    await api.close();
    await site.close();
  });

  it("the API reports the JSON-LD that does not parse, then each defect with its path and fix", async () => {
    const broken = await call(api, "POST", "/api/v1/reports", { key, form: { url: `${site.url}/` } });
    expect(broken.statusCode).toBe(201);
    expect(broken.json().data.results["structured-data"]).toMatchObject({
      category: "seo",
      importance: "medium",
      status: "fail",
      message: "1 JSON-LD block does not parse (block 2, line 1 column 60).",
      details: { items: [expect.objectContaining({ where: "JSON-LD block 2", line: 1, column: 60 })] },
    });
    const fixed = await call(api, "POST", "/api/v1/reports", { key, form: { url: `${site.url}/fixed` } });
    const results = fixed.json().data.results;
    expect(results["structured-data"].status).toBe("warn");
    expect(results["structured-data"].details.items).toEqual([
      expect.objectContaining({
        type: "Product",
        path: "Product > datePublised",
        fix: 'Rename "datePublised" to "datePublished".',
      }),
      expect.objectContaining({
        type: "Event",
        path: "Event > startDate",
        problem: '"next week" is not an ISO 8601 date.',
      }),
    ]);
    expect(results["rich-results"]).toMatchObject({ status: "fail", category: "seo" });
    expect(results["rich-results"].details.items).toContainEqual(
      expect.objectContaining({
        level: "required",
        type: "Offer",
        path: "Product > offers > price",
        problem: 'The required property "price" is "€19", not a number.',
        source: "https://developers.google.com/search/docs/appearance/structured-data/product-snippet",
      }),
    );
    expect(results["rich-results"].details.items).toContainEqual(
      expect.objectContaining({ level: "required", type: "Event", path: "Event > startDate" }),
    );
    const checks = await call(api, "GET", "/api/v1/checks", { key });
    expect(checks.json().data.map((check: { id: string }) => check.id)).toContain("rich-results");
  });

  it("the web report page shows the same evidence", async () => {
    const client = new WebClient(api.app);
    expect((await client.signUp("web-sd@example.com")).statusCode).toBe(200);
    const analysed = await client.post("/reports", { url: `${site.url}/fixed`, privacy: "0" });
    expect(analysed.statusCode).toBe(303);
    const report = await client.get(analysed.headers.location as string);
    expect(report.statusCode).toBe(200);
    expect(report.body).toContain('id="check-rich-results"');
    expect(report.body).toContain("Product &#62; offers &#62; price");
    expect(report.body).toContain("Rename &#34;datePublised&#34; to &#34;datePublished&#34;.");
  });

  it("the pagegrade command prints them", async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [new URL("../../bin/pagegrade.js", import.meta.url).pathname, "analyze", `${site.url}/fixed`],
      { env: { ...process.env, NO_COLOR: "1", PAGEGRADE_ALLOW_PRIVATE_NETWORKS: "1" } },
    );
    expect(stdout).toContain("✗ Rich result eligibility (rich-results) [medium]");
    expect(stdout).toContain("path: Product > offers > price");
    expect(stdout).toContain("! Structured data (structured-data) [medium]");
  });
});
