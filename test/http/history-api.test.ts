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

  describe("diff", () => {
    const diff = (query: string, as = key) =>
      call(api, "GET", `/api/v1/reports/${reportId}/diff${query}`, { key: as });

    it("compares the latest complete analysis with the one before by default, regressions first", async () => {
      const response = await diff("");
      expect(response.statusCode).toBe(200);
      const body = response.json();
      const report = (await call(api, "GET", `/api/v1/reports/${reportId}`, { key })).json().data;
      expect(body.status).toBe(200);
      expect(body.data).toMatchObject({
        object: "diff",
        report_id: reportId,
        from: { id: analysisIds[2] },
        to: {
          id: analysisIds[3],
          score: report.score,
          result: report.result,
          generated_at: report.generated_at,
        },
        score_change: report.score_change,
      });
      const imageAlt = body.data.checks.find((check: { id: string }) => check.id === "image-alt");
      expect(imageAlt).toMatchObject({ change: "regressed", from: "pass", to: "fail", importance: "high" });
      expect(imageAlt.evidence.removed).toEqual([]);
      expect(JSON.stringify(imageAlt.evidence.added)).toContain("/chain.png");
      expect(body.data.checks[0].change).toBe("regressed");
      expect(body.data.categories.seo).toMatchObject({
        from: expect.any(Number),
        to: report.categories.seo,
      });
    });

    it("compares any two complete analyses, either way round", async () => {
      const back = (await diff(`?from=${analysisIds[3]}&to=${analysisIds[2]}`)).json().data;
      const imageAlt = back.checks.find((check: { id: string }) => check.id === "image-alt");
      expect(imageAlt).toMatchObject({ change: "fixed", from: "fail", to: "pass" });
      expect(JSON.stringify(imageAlt.evidence.removed)).toContain("/chain.png");
      const same = (await diff(`?from=${analysisIds[1]}&to=${analysisIds[3]}`)).json().data;
      expect(same.checks.map((check: { id: string }) => check.id)).not.toContain("image-alt");
      // Only `to` given: `from` is the complete analysis before it.
      expect((await diff(`?to=${analysisIds[2]}`)).json().data.from.id).toBe(analysisIds[1]);
    });

    it.each([
      ["?from=987654", "from", "The from field must be a complete analysis of this report."],
      ["?to=987654", "to", "The to field must be a complete analysis of this report."],
      ["?from=x", "from", "The from field must be an integer."],
      ["?to=0", "to", "The to field must be at least 1."],
    ])("refuses %s with 422 naming %s", async (query, field, message) => {
      const response = await diff(query);
      expect(response.statusCode).toBe(422);
      expect(response.json().errors).toEqual({ [field]: [message] });
    });

    it("refuses an analysis that was dropped, or belongs to another report", async () => {
      expect((await diff(`?from=${analysisIds[0]}`)).json().errors.from).toBeDefined();
      served = "good";
      const another = (
        await call(api, "POST", "/api/v1/reports", { key, form: { url: `${site.url}/` } })
      ).json().data;
      expect((await diff(`?to=${another.analysis_id}`)).json().errors.to).toBeDefined();
      // A report with one analysis: nothing to compare with.
      const single = await call(api, "GET", `/api/v1/reports/${another.id}/diff`, { key });
      expect(single.json().data).toMatchObject({
        from: null,
        score_change: null,
        checks: [],
        to: { id: another.analysis_id },
      });
    });

    it("refuses a failed analysis as an end, and skips it for the default", async () => {
      const { ReportStore } = await import("../../src/store/report-store.js");
      const userId = (await api.accounts.authenticate(key))?.account.id as number;
      const failed = await new ReportStore(api.database.store, { historyLimit: 0 }).recordFailure(
        userId,
        reportId,
        {
          url: `${site.url}/`,
          reason: "timeout",
          message: "The page did not respond in time.",
          generated_at: "2026-11-23T00:00:00.000000Z",
        },
        "schedule",
      );
      const response = await diff(`?to=${failed}`);
      expect(response.statusCode).toBe(422);
      expect(response.json().errors.to).toEqual(["The to field must be a complete analysis of this report."]);
      expect((await diff("")).json().data.to.id).toBe(analysisIds[3]);
      const listed = (
        await call(api, "GET", `/api/v1/reports/${reportId}/analyses?per_page=10`, { key })
      ).json();
      expect(listed.data[0]).toMatchObject({
        id: failed,
        status: "failed",
        trigger: "schedule",
        result: null,
        score: null,
        summary: null,
        categories: null,
        error: { reason: "timeout", message: "The page did not respond in time." },
      });
      const shown = (await call(api, "GET", `/api/v1/reports/${reportId}/analyses/${failed}`, { key })).json()
        .data;
      expect(shown.results).toBeNull();
    });
  });
});
