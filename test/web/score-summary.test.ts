/**
 * Next to the score, through the API and on the report page: the gate that held a page below good (here `https`:
 * the page is served over plain HTTP) and the three failed checks that cost the most, each with the points fixing
 * it brings back, linking to its finding.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, startApi, type TestApi } from "../helpers/api.js";
import { html, type LocalServer, startServer } from "../helpers/local-server.js";

describe("the score's gates and costliest checks", () => {
  let api: TestApi;
  let site: LocalServer;
  let key: string;

  beforeAll(async () => {
    site = await startServer({
      "/": html(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>The bicycle repair shop of the old town</title></head><body><h1>Bicycle repair shop</h1><p>Our bicycle repair shop fixes any bike the same day.</p><img src="/wheel.png"></body></html>`,
      ),
    });
    api = await startApi("sqlite");
    key = await api.newUser();
  });
  afterAll(async () => {
    await api.close();
    await site.close();
  });

  it("says which gate held the score and what fixing the costliest checks brings back", async () => {
    const stored = await call(api, "POST", "/api/v1/reports", {
      key,
      json: { url: `${site.url}/`, privacy: 0 },
    });
    expect(stored.statusCode, stored.body).toBe(201);
    const report = stored.json().data;
    expect(report.score).toBeLessThanOrEqual(79);
    expect(report.summary.gates).toEqual(["https", "viewport"]);
    expect(report.summary.costliest.length).toBeGreaterThan(0);
    expect(report.summary.costliest.length).toBeLessThanOrEqual(3);
    const [first] = report.summary.costliest;
    expect(first.points).toBeGreaterThan(0);

    const page = await api.app.inject({ method: "GET", url: `/reports/${report.id}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain("Held below good:");
    expect(page.body).toContain('<a href="#check-https">not served over HTTPS</a>');
    expect(page.body).toContain('<a href="#check-viewport">');
    expect(page.body).toContain(`<a href="#check-${first.check}">`);
    expect(page.body).toContain(`+${first.points} point`);
  });
});
