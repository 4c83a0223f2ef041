import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, databaseKinds, startApi, type TestApi } from "../helpers/api.js";
import { type LocalServer, startServer } from "../helpers/local-server.js";

/** A page whose images lose their alt text in its second version: a re-run then regresses image-alt. */
const versions = {
  good: `<!doctype html><html lang="en"><head><title>Bicycle repair at home, step by step</title><meta name="description" content="${"How to repair a bicycle at home. ".repeat(4)}"></head><body><h1>Bicycle repair</h1><p>Bicycles and their repair.</p><img src="/wheel.png" alt="A wheel" width="10" height="10"></body></html>`,
  worse: `<!doctype html><html lang="en"><head><title>Bicycle repair at home, step by step</title><meta name="description" content="${"How to repair a bicycle at home. ".repeat(4)}"></head><body><h1>Bicycle repair</h1><p>Bicycles and their repair.</p><img src="/wheel.png" width="10" height="10"><img src="/chain.png" width="10" height="10"></body></html>`,
};

describe.each(databaseKinds)("the history API on %s", (kind) => {
  let api: TestApi;
  let site: LocalServer;
  let key: string;
  let other: string;
  let served: keyof typeof versions = "good";
  let reportId: number;
  const analysisIds: number[] = [];

  beforeAll(async () => {
    site = await startServer({
      "/": (_request, response) => {
        response.setHeader("content-type", "text/html; charset=utf-8");
        response.end(versions[served]);
      },
    });
    api = await startApi(kind, { PAGEGRADE_HISTORY_LIMIT: "3" });
    key = await api.newUser("owner@example.com");
    other = await api.newUser("other@example.com");
    // Four analyses: create (good), re-run (worse), re-run (good), re-run (worse); the limit keeps three.
    served = "good";
    const created = await call(api, "POST", "/api/v1/reports", { key, form: { url: `${site.url}/` } });
    reportId = created.json().data.id;
    analysisIds.push(created.json().data.analysis_id);
    for (const next of ["worse", "good", "worse"] as const) {
      served = next;
      const rerun = await call(api, "PATCH", `/api/v1/reports/${reportId}`, { key, form: { results: "1" } });
      analysisIds.push(rerun.json().data.analysis_id);
    }
  });
  afterAll(async () => {
    await api.close();
    await site.close();
  });

  it("counts the report's analyses and the score's change on the report", async () => {
    const report = (await call(api, "GET", `/api/v1/reports/${reportId}`, { key })).json().data;
    const previous = (
      await call(api, "GET", `/api/v1/reports/${reportId}/analyses/${analysisIds[2]}`, { key })
    ).json().data;
    expect(report).toMatchObject({ analyses: 3, analysis_id: analysisIds[3] });
    expect(report.score_change).toBe(report.score - previous.score);
    expect(report.score_change).toBeLessThan(0);
    const listed = (await call(api, "GET", "/api/v1/reports", { key })).json().data[0];
    expect(listed).toMatchObject({
      analyses: 3,
      analysis_id: analysisIds[3],
      score_change: report.score_change,
    });
  });

  it("lists analyses newest first by default, oldest first on request, without results", async () => {
    const response = await call(api, "GET", `/api/v1/reports/${reportId}/analyses`, { key });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    // Ids increase with time; the oldest was dropped by the limit of 3.
    expect(analysisIds).toEqual([...analysisIds].sort((a, b) => a - b));
    expect(body.data.map((item: { id: number }) => item.id)).toEqual(analysisIds.slice(1).reverse());
    expect(body.data.map((item: { trigger: string }) => item.trigger)).toEqual(["rerun", "rerun", "rerun"]);
    expect(body.data[0]).toMatchObject({
      object: "analysis",
      report_id: reportId,
      status: "complete",
      mode: "raw",
      url: `${site.url}/`,
      final_url: `${site.url}/`,
      error: null,
    });
    expect(body.data[0]).not.toHaveProperty("results");
    expect(body.meta).toMatchObject({ total: 3, per_page: 10, current_page: 1, from: 1, to: 3 });
    expect(body.links.first).toMatch(
      new RegExp(`/api/v1/reports/${reportId}/analyses\\?sort=desc&per_page=10&page=1$`),
    );
    const ascending = (
      await call(api, "GET", `/api/v1/reports/${reportId}/analyses?sort=asc&per_page=25&page=1`, { key })
    ).json();
    expect(ascending.data.map((item: { id: number }) => item.id)).toEqual(analysisIds.slice(1));
    const pastEnd = (await call(api, "GET", `/api/v1/reports/${reportId}/analyses?page=2`, { key })).json();
    expect(pastEnd.data).toEqual([]);
    expect(pastEnd.meta).toMatchObject({ from: null, to: null, total: 3 });
  });

  it.each([
    ["sort=up", "sort", "The sort field must be one of desc, asc."],
    ["per_page=20", "per_page", "The per_page field must be one of 10, 25, 50, 100."],
    ["page=0", "page", "The page field must be at least 1."],
    ["page=x", "page", "The page field must be an integer."],
  ])("refuses ?%s with 422 naming %s", async (query, field, message) => {
    const response = await call(api, "GET", `/api/v1/reports/${reportId}/analyses?${query}`, { key });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors[field]).toEqual([message]);
  });

  it("shows one analysis with its results", async () => {
    const response = await call(api, "GET", `/api/v1/reports/${reportId}/analyses/${analysisIds[3]}`, {
      key,
    });
    expect(response.statusCode).toBe(200);
    const analysis = response.json().data;
    const report = (await call(api, "GET", `/api/v1/reports/${reportId}`, { key })).json().data;
    // The latest analysis is what the report shows.
    expect(analysis).toMatchObject({
      id: analysisIds[3],
      score: report.score,
      result: report.result,
      summary: report.summary,
      categories: report.categories,
      results: report.results,
      generated_at: report.generated_at,
    });
    const earlier = (
      await call(api, "GET", `/api/v1/reports/${reportId}/analyses/${analysisIds[2]}`, { key })
    ).json().data;
    expect(earlier.results["image-alt"].status).toBe("pass");
    expect(analysis.results["image-alt"].status).toBe("fail");
  });

  it("answers another user's report, a dropped or foreign analysis exactly like a missing one", async () => {
    const missing = (await call(api, "GET", "/api/v1/reports/987654/analyses", { key })).json();
    for (const path of [
      `/api/v1/reports/${reportId}/analyses`,
      `/api/v1/reports/${reportId}/analyses/${analysisIds[3]}`,
      `/api/v1/reports/${reportId}/diff`,
    ]) {
      const foreign = await call(api, "GET", path, { key: other });
      expect(foreign.statusCode).toBe(404);
      const { instance: _a, request_id: _b, ...body } = foreign.json();
      const { instance: _c, request_id: _d, ...expected } = missing;
      expect(body).toEqual(expected);
    }
    for (const id of [analysisIds[0], 987654]) {
      expect((await call(api, "GET", `/api/v1/reports/${reportId}/analyses/${id}`, { key })).statusCode).toBe(
        404,
      );
    }
  });
});
