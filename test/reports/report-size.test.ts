/**
 * A report's results have a ceiling as a whole (src/analysis/report-budget.ts; docs/api.md, "Response sizes"):
 * a hostile page whose failing checks carry evidence, messages and values at their per-check bounds (strings of
 * control characters, 6 bytes each in JSON) is stored and listed within it, its verdicts kept and what was cut
 * marked. Before the budget this page's results were 1,230,214 bytes a report (a list of 3: 3,693,585 bytes); with it
 * 298,492 (898,414).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { maxResultsBytes } from "../../src/analysis/report-budget.js";
import { unpackResults } from "../../src/store/analysis-document.js";
import { call, databaseKinds, startApi, type TestApi } from "../helpers/api.js";
import { hostileResultsPage } from "../helpers/hostile-results-page.js";
import { html, type LocalServer, startServer } from "../helpers/local-server.js";

/** docs/api.md, "Response sizes": a report in a list at worst, its fields but `results` (79 KB) and its results. */
const worstReportItem = 79_000 + maxResultsBytes;

const bytesOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

describe.each(databaseKinds)("a report's size on %s", (kind) => {
  let api: TestApi;
  let site: LocalServer;
  let key: string;
  const reports = 3;

  beforeAll(async () => {
    site = await startServer({ "/": html(hostileResultsPage()) });
    api = await startApi(kind);
    key = await api.newUser();
    for (let index = 0; index < reports; index++) {
      const stored = await call(api, "POST", "/api/v1/reports", {
        key,
        form: { url: `${site.url}/?n=${index}` },
      });
      expect(stored.statusCode, stored.body).toBe(201);
    }
  }, 120_000);
  afterAll(async () => {
    await api?.close();
    await site?.close();
  });

  it("stores each report's results within the budget, evidence cut and marked, verdicts kept", async () => {
    const rows = await api.database.store.db.selectFrom("analyses").select(["results", "summary"]).execute();
    expect(rows).toHaveLength(reports);
    for (const row of rows) {
      const text = unpackResults(row.results as Buffer);
      expect(text.length).toBeLessThanOrEqual(maxResultsBytes);
      const results = JSON.parse(text.toString()) as Record<
        string,
        { status: string; details?: { items: unknown[]; truncated: number }; cut?: Record<string, unknown> }
      >;
      const cut = Object.entries(results).filter(([, result]) => result.cut);
      expect(cut.map(([id]) => id)).toEqual(
        expect.arrayContaining(["title", "meta-description", "canonical"]),
      );
      for (const [, result] of cut) {
        expect(result.cut).toMatchObject({ reason: "report-size" });
        expect(["fail", "warn"]).toContain(result.status);
        expect(result.details?.truncated).toBeGreaterThanOrEqual(result.cut?.evidence_items as number);
      }
      expect(results.title?.status).toBe("warn");
      expect(results["meta-description"]?.status).toBe("warn");
      expect(results.canonical?.status).toBe("fail");
    }
  });

  it("keeps GET /api/v1/reports within its documented bound", async () => {
    const answer = await call(api, "GET", "/api/v1/reports?per_page=100", { key });
    expect(answer.statusCode).toBe(200);
    const items = answer.json().data as Array<{ results: Record<string, { cut?: object }> }>;
    expect(items).toHaveLength(reports);
    for (const item of items) {
      expect(bytesOf(item.results)).toBeLessThanOrEqual(maxResultsBytes);
      expect(bytesOf(item)).toBeLessThanOrEqual(worstReportItem);
      expect(Object.values(item.results).some((result) => result.cut)).toBe(true);
    }
    expect(answer.rawPayload.length).toBeLessThanOrEqual(reports * worstReportItem + 100_000);
  });
});
