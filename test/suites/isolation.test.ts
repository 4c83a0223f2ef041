import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SessionService } from "../../src/accounts/session-service.js";
import { type ReportRow, ReportStore } from "../../src/store/report-store.js";
import { databaseKinds, startApi, type TestApi } from "../helpers/api.js";
import { seedRow } from "../helpers/seed.js";
import { WebClient } from "../helpers/web-client.js";

/**
 * Random users with random data: every cross-user access, on every verb of the API and every page of the
 * web application, is refused exactly like a missing resource, and no list ever shows another user's rows.
 */
describe.each(databaseKinds)("isolation on %s", (kind) => {
  let api: TestApi;
  let checked = 0;

  beforeAll(async () => {
    api = await startApi(kind);
  });
  afterAll(async () => {
    console.log(`isolation (${kind}): ${checked} cross-user requests, all refused like missing resources`);
    await api?.close();
  });

  it("never lets one user reach another's reports or projects", { timeout: 300_000 }, async () => {
    const reports = new ReportStore(api.database.store);
    const sessions = new SessionService(api.database.store);
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            host: fc.constantFrom("a.example", "b.example", "shared.example"),
            privacy: fc.constantFrom(1, 2),
            score: fc.integer({ min: 0, max: 100 }),
          }),
          { minLength: 1, maxLength: 6 },
        ),
        fc.array(
          fc.record({
            host: fc.constantFrom("a.example", "shared.example"),
            score: fc.integer({ min: 0, max: 100 }),
          }),
          { maxLength: 4 },
        ),
        async (victimSpecs, attackerSpecs) => {
          const victimKey = await api.newUser();
          const attackerKey = await api.newUser();
          const victimId = (await api.accounts.authenticate(victimKey))?.account.id as number;
          const attackerId = (await api.accounts.authenticate(attackerKey))?.account.id as number;
          const victimRows: ReportRow[] = [];
          for (const spec of victimSpecs) {
            const row = await reports.insert({
              ...seedRow(victimId, {
                url: `https://${spec.host}/v/${Math.random()}`,
                score: spec.score,
                privacy: spec.privacy,
              }),
              password_hash: spec.privacy === 2 ? "argon2-placeholder-not-a-real-hash" : null,
            });
            victimRows.push(row);
          }
          for (const spec of attackerSpecs)
            await reports.insert(
              seedRow(attackerId, { url: `https://${spec.host}/a/${Math.random()}`, score: spec.score }),
            );
          const auth = { authorization: `Bearer ${attackerKey}` };
          const missing = (
            await api.app.inject({ method: "GET", url: "/api/v1/reports/999999999", headers: auth })
          ).json();
          const strip = (body: Record<string, unknown>) => ({
            ...body,
            instance: undefined,
            request_id: undefined,
          });

          for (const row of victimRows) {
            for (const method of ["GET", "PUT", "PATCH", "DELETE"] as const) {
              const response = await api.app.inject({
                method,
                url: `/api/v1/reports/${row.id}`,
                headers: {
                  ...auth,
                  ...(method === "PUT" || method === "PATCH"
                    ? { "content-type": "application/x-www-form-urlencoded" }
                    : {}),
                },
                ...(method === "PUT" || method === "PATCH" ? { payload: "privacy=0" } : {}),
              });
              checked++;
              expect(response.statusCode).toBe(404);
              expect(strip(response.json())).toEqual(strip(missing));
            }
            // The report's history, one of its analyses, its diff and its PDF: just as missing.
            for (const path of ["analyses", `analyses/${row.analysis_id}`, "diff", "pdf"]) {
              const response = await api.app.inject({
                method: "GET",
                url: `/api/v1/reports/${row.id}/${path}`,
                headers: auth,
              });
              checked++;
              expect(response.statusCode).toBe(404);
              expect(strip(response.json())).toEqual(strip(missing));
            }
          }
          const listed = (
            await api.app.inject({ method: "GET", url: "/api/v1/reports?per_page=100", headers: auth })
          ).json();
          checked++;
          expect(
            listed.data.every((report: { id: number }) => !victimRows.some((row) => row.id === report.id)),
          ).toBe(true);
          const projects = (
            await api.app.inject({ method: "GET", url: "/api/v1/projects?per_page=100", headers: auth })
          ).json();
          checked++;
          expect(projects.meta.total).toBe(new Set(attackerSpecs.map((spec) => spec.host)).size);
          const victimOnly = victimSpecs.find(
            (spec) => !attackerSpecs.some((other) => other.host === spec.host),
          );
          if (victimOnly) {
            const deleted = await api.app.inject({
              method: "DELETE",
              url: `/api/v1/projects/${victimOnly.host}`,
              headers: auth,
            });
            checked++;
            expect(deleted.statusCode).toBe(404);
          }

          // The same through the web pages, signed in as the attacker.
          const web = new WebClient(api.app);
          web.cookies.set("pg_session", await sessions.create(attackerId));
          for (const row of victimRows) {
            for (const path of [`/reports/${row.id}/manage`, `/reports/${row.id}/delete`]) {
              checked++;
              expect((await web.get(path)).statusCode).toBe(404);
            }
            checked += 3;
            expect((await web.post(`/reports/${row.id}/privacy`, { privacy: "0" })).statusCode).toBe(404);
            expect((await web.post(`/reports/${row.id}/rerun`)).statusCode).toBe(404);
            expect((await web.post(`/reports/${row.id}/delete`)).statusCode).toBe(404);
            const page = await web.get(`/reports/${row.id}`);
            checked++;
            // Private reports are missing to others; password reports ask for the password and show nothing else.
            if (row.privacy === 1) expect(page.statusCode).toBe(404);
            else expect(page.body).toContain("This report is protected");
            for (const path of [
              `/reports/${row.id}/history`,
              `/reports/${row.id}/analyses/${row.analysis_id}`,
              `/reports/${row.id}.pdf`,
            ]) {
              const historyPage = await web.get(path);
              checked++;
              if (row.privacy === 1) expect(historyPage.statusCode).toBe(404);
              else expect(historyPage.body).toContain("This report is protected");
            }
          }
          const dashboard = await web.get("/reports?per_page=100");
          checked++;
          for (const row of victimRows) expect(dashboard.body).not.toContain(row.url);
          // Nothing of the victim's changed.
          for (const row of victimRows) {
            const after = await reports.find(victimId, row.id);
            expect(after).toMatchObject({
              privacy: row.privacy,
              score: row.score,
              updated_at: row.updated_at,
            });
          }
        },
      ),
      { numRuns: 15 },
    );
  });
});
