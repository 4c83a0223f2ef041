import { createConfig, lintFromString } from "@redocly/openapi-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectDocumented, startApi, type TestApi } from "../helpers/api.js";

describe("the OpenAPI document", () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startApi("sqlite");
  });
  afterAll(() => api.close());

  it("is served without a key as OpenAPI 3.1 and documents every operation", async () => {
    const response = await api.app.inject({ method: "GET", url: "/api/v1/openapi.json" });
    expect(response.statusCode).toBe(200);
    const doc = JSON.parse(response.body);
    expect(doc.openapi).toBe("3.1.0");
    const operations = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(
      ([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(operations.sort()).toEqual(
      [
        "DELETE /api/v1/projects/{project}",
        "DELETE /api/v1/reports/{id}",
        "GET /api/v1/account",
        "GET /api/v1/checks",
        "GET /api/v1/projects",
        "GET /api/v1/reports",
        "GET /api/v1/reports/{id}",
        "GET /api/v1/reports/{id}/analyses",
        "GET /api/v1/reports/{id}/analyses/{analysis}",
        "GET /api/v1/reports/{id}/diff",
        "GET /api/v1/reports/{id}/pdf",
        "GET /api/v1/reports/{id}/screenshot",
        "PATCH /api/v1/reports/{id}",
        "POST /api/v1/reports",
        "PUT /api/v1/reports/{id}",
        "GET /api/v1/webhooks",
        "POST /api/v1/webhooks",
        "GET /api/v1/webhooks/{id}",
        "PATCH /api/v1/webhooks/{id}",
        "DELETE /api/v1/webhooks/{id}",
        "POST /api/v1/webhooks/{id}/ping",
        "GET /api/v1/webhooks/{id}/deliveries",
        "GET /api/v1/crawls",
        "POST /api/v1/crawls",
        "GET /api/v1/crawls/{id}",
        "DELETE /api/v1/crawls/{id}",
        "POST /api/v1/crawls/{id}/cancel",
        "GET /api/v1/crawls/{id}/pages",
        "GET /api/v1/crawls/{id}/issues",
        "GET /api/v1/crawls/{id}/issues/{check}/findings/{fingerprint}/urls",
        "GET /api/v1/crawls/{id}/events",
        "GET /api/v1/crawls/{id}/checks",
        "GET /api/v1/crawls/{id}/fix-first",
        "GET /api/v1/crawls/{id}/checks/{check}/pages",
        "GET /api/v1/crawls/{id}/links",
        "GET /api/v1/crawls/{id}/diff",
        "GET /api/v1/projects/{project}",
        "GET /api/v1/projects/{project}/notifications",
        "PUT /api/v1/projects/{project}/notifications",
        "GET /api/v1/teams",
        "POST /api/v1/teams",
        "GET /api/v1/teams/{id}",
        "PATCH /api/v1/teams/{id}",
        "DELETE /api/v1/teams/{id}",
        "GET /api/v1/teams/{id}/members",
        "PATCH /api/v1/teams/{id}/members/{user_id}",
        "DELETE /api/v1/teams/{id}/members/{user_id}",
        "GET /api/v1/teams/{id}/invitations",
        "POST /api/v1/teams/{id}/invitations",
        "DELETE /api/v1/teams/{id}/invitations/{invitation_id}",
        "POST /api/v1/invitations/accept",
        "GET /api/v1/teams/{id}/activity",
        "PATCH /api/v1/crawls/{id}",
        "GET /api/v1/crawls/{id}/audit.pdf",
        "GET /api/v1/branding",
        "PUT /api/v1/branding",
        "DELETE /api/v1/branding",
      ].sort(),
    );
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining([
        "Problem",
        "Report",
        "CheckResult",
        "Project",
        "NotificationSettings",
        "Analysis",
        "AnalysisWithResults",
      ]),
    );
  });

  it("documents the optional integer team parameter on every workspace operation, and only there", async () => {
    const doc = JSON.parse((await api.app.inject({ method: "GET", url: "/api/v1/openapi.json" })).body) as {
      paths: Record<
        string,
        Record<
          string,
          { parameters?: Array<{ name: string; in: string; required?: boolean; schema: { type: string } }> }
        >
      >;
    };
    const teamOf = (path: string, method: string) =>
      doc.paths[path]?.[method]?.parameters?.find((parameter) => parameter.name === "team");
    for (const [path, methods] of Object.entries(doc.paths)) {
      const outside = /^\/api\/v1\/(account|teams|invitations|checks)(\/|$)/.test(path);
      for (const method of Object.keys(methods)) {
        const team = teamOf(path, method);
        if (outside) expect(team, `${method} ${path}`).toBeUndefined();
        else
          expect(team, `${method} ${path}`).toMatchObject({
            in: "query",
            required: false,
            schema: { type: "integer" },
          });
      }
    }
    expect(teamOf("/api/v1/crawls/{id}", "get")).toBeDefined();
    expect(teamOf("/api/v1/branding", "put")).toBeDefined();
  });

  it("documents what a path with a dot segment answers, judged by the path it resolves to", async () => {
    // "/crawls/./cancel" resolves to "/crawls/cancel": the crawl resource named "cancel", which takes no POST.
    const key = await api.newUser();
    const url = "/api/v1/crawls/./cancel";
    const response = await api.app.inject({
      method: "POST",
      url,
      headers: { authorization: `Bearer ${key}` },
    });
    expect(response.statusCode).toBe(405);
    await expectDocumented(api, "POST", url, response);
    // The method is judged before the body: broken JSON does not turn the 405 into a 400.
    const broken = await api.app.inject({
      method: "POST",
      url,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      payload: "{",
    });
    expect(broken.statusCode).toBe(405);
    await expectDocumented(api, "POST", url, broken);
  });

  it("passes a maintained OpenAPI linter without errors", async () => {
    const source = (await api.app.inject({ method: "GET", url: "/api/v1/openapi.json" })).body;
    const problems = await lintFromString({
      source,
      absoluteRef: "openapi.json",
      config: await createConfig({ extends: ["recommended"] }),
    });
    const errors = problems.filter((problem) => problem.severity === "error");
    expect(
      errors.map((problem) => `${problem.ruleId}: ${problem.message} at ${problem.location[0]?.pointer}`),
    ).toEqual([]);
  });
});
