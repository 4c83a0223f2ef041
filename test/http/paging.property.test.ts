import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ReportStore } from "../../src/store/report-store.js";
import { call, databaseKinds, startApi, type TestApi } from "../helpers/api.js";
import { seedRow } from "../helpers/seed.js";

interface Row {
  id: number;
  url: string;
  score: number | null;
  result: string | null;
  project: string;
  generated_at: string | null;
}

const sortKeys = { id: "id", generated_at: "generated_at", url: "url", result: "score" } as const;

/**
 * For random data and every sort, filter and page size: the concatenated pages hold every matching row exactly
 * once, in order (ties by id in the same direction), and the paginator's numbers are right.
 */
describe.each(databaseKinds)("paging on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startApi(kind);
  });
  afterAll(() => api.close());

  it("returns every row exactly once, in order, with correct totals", { timeout: 120_000 }, async () => {
    const rowSpec = fc.record({
      path: fc.stringMatching(/^[a-z]{0,3}$/),
      host: fc.constantFrom("a.example", "b.example", "c.example"),
      score: fc.constantFrom(10, 50, 50, 79, 80, 100),
      hour: fc.integer({ min: 0, max: 3 }),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(rowSpec, { minLength: 0, maxLength: 40 }),
        fc.constantFrom("id", "generated_at", "url", "result"),
        fc.constantFrom("asc", "desc"),
        fc.constantFrom(10, 25),
        fc.option(fc.constantFrom("a.example", "b.example"), { nil: undefined }),
        fc.option(fc.constantFrom("good", "decent", "bad"), { nil: undefined }),
        async (specs, sortBy, direction, perPage, project, result) => {
          const key = await api.newUser();
          const userId = (await api.accounts.authenticate(key))?.account.id as number;
          const store = new ReportStore(api.database.store);
          const rows: Row[] = [];
          for (const spec of specs) {
            const inserted = await store.insert(
              seedRow(userId, {
                url: `https://${spec.host}/${spec.path}`,
                score: spec.score,
                generatedAt: new Date(Date.UTC(2026, 0, 1, spec.hour)),
              }),
            );
            rows.push(inserted);
          }
          const column = sortKeys[sortBy as keyof typeof sortKeys];
          const sign = direction === "asc" ? 1 : -1;
          const expected = rows
            .filter(
              (row) =>
                (project === undefined || row.project === project) &&
                (result === undefined || row.result === result),
            )
            .sort((a, b) => {
              const left = a[column];
              const right = b[column];
              // A report without a complete analysis (null score or time) sorts first in ascending order.
              const byKey =
                left === right ? 0 : left === null ? -1 : right === null ? 1 : left < right ? -1 : 1;
              return sign * (byKey !== 0 ? byKey : a.id - b.id);
            })
            .map((row) => row.id);

          const query = new URLSearchParams({ sort_by: sortBy, sort: direction, per_page: String(perPage) });
          if (project) query.set("project", project);
          if (result) query.set("result", result);
          const seen: number[] = [];
          const lastPage = Math.max(1, Math.ceil(expected.length / perPage));
          for (let page = 1; page <= lastPage + 1; page++) {
            query.set("page", String(page));
            const response = await call(api, "GET", `/api/v1/reports?${query}`, { key });
            const body = response.json();
            expect(body.meta.total).toBe(expected.length);
            expect(body.meta.last_page).toBe(lastPage);
            const ids = body.data.map((report: { id: number }) => report.id);
            if (ids.length > 0) {
              expect(body.meta.from).toBe((page - 1) * perPage + 1);
              expect(body.meta.to).toBe((page - 1) * perPage + ids.length);
            } else {
              expect(body.meta.from).toBeNull();
              // Only a page past the end, or the single page of an empty list, is empty.
              expect(page > lastPage || expected.length === 0).toBe(true);
            }
            seen.push(...ids);
          }
          expect(seen).toEqual(expected);
        },
      ),
      { numRuns: 50 },
    );
  });
});
