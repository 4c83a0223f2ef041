import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checks } from "../../src/analysis/checks/index.js";
import { ReportStore } from "../../src/store/report-store.js";
import { call, countReports, databaseKinds, startApi, type TestApi } from "../helpers/api.js";
import { html, type LocalServer, startServer } from "../helpers/local-server.js";
import { seedRow } from "../helpers/seed.js";

const page = (title: string) =>
  `<!doctype html><html lang="en"><head><title>${title}</title><meta name="description" content="${"A page about bicycles. ".repeat(4)}"></head><body><h1>${title}</h1><p>Bicycles and their repair.</p></body></html>`;

describe.each(databaseKinds)("the reports API on %s", (kind) => {
  let api: TestApi;
  let site: LocalServer;
  let key: string;
  let other: string;
  let userId: number;

  beforeAll(async () => {
    site = await startServer({
      "/": html(page("Bicycle repair at home")),
      "/second": html(page("Second page about bicycles")),
      "/picture.png": (_request, response) =>
        response.writeHead(200, { "content-type": "image/png" }).end("png"),
    });
    api = await startApi(kind);
    key = await api.newUser("owner@example.com");
    other = await api.newUser("other@example.com");
    userId = (await api.accounts.authenticate(key))?.account.id as number;
  });
  afterAll(async () => {
    await api.close();
    await site.close();
  });

  const store = (fields: Record<string, string>, as = key) =>
    call(api, "POST", "/api/v1/reports", { key: as, form: fields });

  describe("authentication", () => {
    it("answers 401 with WWW-Authenticate without a key", async () => {
      const response = await call(api, "GET", "/api/v1/reports", { key: null });
      expect(response.statusCode).toBe(401);
      expect(response.headers["www-authenticate"]).toBe('Bearer realm="api"');
      expect(response.json()).toMatchObject({
        status: 401,
        message: "Unauthenticated.",
        type: "/problems/unauthenticated",
      });
      expect(response.headers["content-type"]).toBe("application/problem+json; charset=utf-8");
    });

    it.each([
      ["a malformed header", "Basic abc"],
      ["a bare scheme", "Bearer"],
      ["an unknown key", `Bearer pgk_${"a".repeat(43)}`],
      ["a key with two spaces", `Bearer  pgk_${"a".repeat(43)}`],
    ])("answers the same 401 for %s", async (_name, header) => {
      const response = await call(api, "GET", "/api/v1/reports", {
        key: null,
        headers: { authorization: header },
      });
      expect(response.statusCode).toBe(401);
      expect(response.headers["www-authenticate"]).toBe('Bearer realm="api", error="invalid_token"');
      expect(response.json().message).toBe("Unauthenticated.");
    });

    it("refuses a revoked key and accepts its replacement", async () => {
      const first = await api.newUser("rotating@example.com");
      const { key: second } = await api.accounts.issueKey("rotating@example.com");
      expect((await call(api, "GET", "/api/v1/account", { key: first })).statusCode).toBe(401);
      expect((await call(api, "GET", "/api/v1/account", { key: second })).statusCode).toBe(200);
    });

    it("never takes a key from the query string", async () => {
      const response = await call(api, "GET", `/api/v1/reports?api_key=${key}&api_token=${key}`, {
        key: null,
      });
      expect(response.statusCode).toBe(401);
    });
  });

  describe("store", () => {
    it("analyses the page and answers 201 with the report and its Location", async () => {
      const response = await store({ url: `${site.url}/` });
      expect(response.statusCode).toBe(201);
      const { data, status } = response.json();
      expect(status).toBe(201);
      expect(response.headers.location).toBe(`/api/v1/reports/${data.id}`);
      expect(data).toMatchObject({
        object: "report",
        url: `${site.url}/`,
        final_url: `${site.url}/`,
        project: "127.0.0.1",
        privacy: 1,
        password: false,
      });
      expect(["good", "decent", "bad"]).toContain(data.result);
      expect(data.results.title.status).toBe("pass");
      expect(Object.keys(data.results)).toHaveLength(checks.length);
      expect(data.generated_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
      expect(JSON.stringify(data)).not.toMatch(/user_id|password_hash/);
    });

    it("accepts JSON bodies, normalises the URL and honours privacy and password", async () => {
      const response = await call(api, "POST", "/api/v1/reports", {
        key,
        json: {
          url: `  HTTP://127.0.0.1:${site.port}/second#section  `,
          privacy: 2,
          password: "open sesame",
        },
      });
      expect(response.statusCode).toBe(201);
      expect(response.json().data).toMatchObject({
        url: `http://127.0.0.1:${site.port}/second`,
        privacy: 2,
        password: true,
      });
    });

    it.each([
      [{}, "url", "The url field is required."],
      [{ url: "   " }, "url", "The url field is required."],
      [{ url: "not a url" }, "url", "The url field must be an absolute http or https URL."],
      [{ url: "ftp://example.com/" }, "url", "The url field must be an absolute http or https URL."],
      [
        { url: "http://user:pass@example.com/" },
        "url",
        "The url field may not contain a user name or password.",
      ],
      [
        { url: `http://example.com/${"a".repeat(2050)}` },
        "url",
        "The url field must not be greater than 2048 characters.",
      ],
      [{ url: "http://example.com/", privacy: "01" }, "privacy", "The privacy field must be an integer."],
      [{ url: "http://example.com/", privacy: "1.0" }, "privacy", "The privacy field must be an integer."],
      [{ url: "http://example.com/", privacy: "x" }, "privacy", "The privacy field must be an integer."],
      [{ url: "http://example.com/", privacy: "3" }, "privacy", "The privacy field must be one of 0, 1, 2."],
      [
        { url: "http://example.com/", privacy: "2" },
        "password",
        "The password field is required when privacy is 2.",
      ],
      [
        { url: "http://example.com/", password: "p".repeat(129) },
        "password",
        "The password field must not be greater than 128 characters.",
      ],
    ])("refuses %j with 422 on %s", async (fields, field, message) => {
      const before = await countReports(api);
      const response = await store(fields as Record<string, string>);
      expect(response.statusCode).toBe(422);
      expect(response.json()).toMatchObject({
        status: 422,
        message,
        detail: message,
        type: "/problems/validation",
      });
      expect(response.json().errors[field]).toContain(message);
      expect(await countReports(api)).toBe(before);
    });

    it("answers 422 on url with the reason when the page cannot be analysed, and stores nothing", async () => {
      const before = await countReports(api);
      const missing = await store({ url: `${site.url}/missing` });
      expect(missing.statusCode).toBe(422);
      expect(missing.json()).toMatchObject({
        errors: { url: ["The server returned HTTP 404."] },
        reason: "http-status",
      });
      const png = await store({ url: `${site.url}/picture.png` });
      expect(png.json()).toMatchObject({
        errors: { url: ["The URL is not an HTML page (it is image/png)."] },
        reason: "not-html",
      });
      expect(await countReports(api)).toBe(before);
    });

    it("refuses other content types, oversized bodies and broken JSON", async () => {
      const text = await api.app.inject({
        method: "POST",
        url: "/api/v1/reports",
        headers: { authorization: `Bearer ${key}`, "content-type": "text/plain" },
        payload: "url=http://example.com/",
      });
      expect(text.statusCode).toBe(415);
      const big = await store({ url: `http://example.com/?q=${"a".repeat(17 * 1024)}` });
      expect(big.statusCode).toBe(413);
      const broken = await api.app.inject({
        method: "POST",
        url: "/api/v1/reports",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        payload: '{"url":',
      });
      expect(broken.statusCode).toBe(400);
      expect(broken.json().message).toBe("The request body is not valid JSON.");
    });
  });

  describe("show, update and delete", () => {
    let id: number;
    beforeAll(async () => {
      id = (await store({ url: `${site.url}/`, privacy: "0" })).json().data.id;
    });

    it("shows the caller's report and hides everyone else's", async () => {
      const own = await call(api, "GET", `/api/v1/reports/${id}`, { key });
      expect(own.statusCode).toBe(200);
      expect(own.json()).toMatchObject({ data: { id, privacy: 0 }, status: 200 });
      expect(own.headers["cache-control"]).toBe("no-store");
      for (const url of [
        `/api/v1/reports/${id}`,
        "/api/v1/reports/999999",
        "/api/v1/reports/abc",
        "/api/v1/reports/0",
      ]) {
        const response = await call(api, "GET", url, { key: url.includes(String(id)) ? other : key });
        expect(response.statusCode).toBe(404);
        expect(response.json().message).toBe("Resource not found.");
      }
    });

    it("changes privacy and password by the rules, with PUT and PATCH alike", async () => {
      const needsPassword = await call(api, "PATCH", `/api/v1/reports/${id}`, {
        key,
        form: { privacy: "2" },
      });
      expect(needsPassword.statusCode).toBe(422);
      expect(needsPassword.json().errors.password).toEqual([
        "The password field is required when privacy is 2.",
      ]);
      const protectedReport = await call(api, "PUT", `/api/v1/reports/${id}`, {
        key,
        form: { privacy: "2", password: "secret" },
      });
      expect(protectedReport.json().data).toMatchObject({ privacy: 2, password: true });
      const keepsPassword = await call(api, "PATCH", `/api/v1/reports/${id}`, {
        key,
        form: { privacy: "2" },
      });
      expect(keepsPassword.json().data).toMatchObject({ privacy: 2, password: true });
      const ignored = await call(api, "PATCH", `/api/v1/reports/${id}`, {
        key,
        form: { privacy: "0", password: "ignored" },
      });
      expect(ignored.json().data).toMatchObject({ privacy: 0, password: false });
      const noChange = await call(api, "PUT", `/api/v1/reports/${id}`, { key, form: {} });
      expect(noChange.json().data).toMatchObject({ privacy: 0, password: false });
      for (const [field, value] of [
        ["privacy", "5"],
        ["results", "2"],
        ["results", "yes"],
      ]) {
        expect(
          (
            await call(api, "PATCH", `/api/v1/reports/${id}`, {
              key,
              form: { [field as string]: value as string },
            })
          ).statusCode,
        ).toBe(422);
      }
    });

    it("re-runs the analysis with results=1 and leaves the report alone when that fails", async () => {
      const before = (await call(api, "GET", `/api/v1/reports/${id}`, { key })).json().data;
      await new Promise((resolve) => setTimeout(resolve, 5));
      const rerun = await call(api, "PATCH", `/api/v1/reports/${id}`, { key, form: { results: "1" } });
      expect(rerun.statusCode).toBe(200);
      expect(rerun.json().data.generated_at > before.generated_at).toBe(true);
      const notRerun = await call(api, "PATCH", `/api/v1/reports/${id}`, { key, form: { results: "0" } });
      expect(notRerun.json().data.generated_at).toBe(rerun.json().data.generated_at);

      const doomed = (await store({ url: `${site.url}/second` })).json().data;
      await api.database.store.db
        .updateTable("reports")
        .set({ url: `${site.url}/picture.png` })
        .where("id", "=", doomed.id)
        .execute();
      const failed = await call(api, "PUT", `/api/v1/reports/${doomed.id}`, {
        key,
        form: { results: "1", privacy: "0" },
      });
      expect(failed.statusCode).toBe(422);
      expect(failed.json().reason).toBe("not-html");
      const after = (await call(api, "GET", `/api/v1/reports/${doomed.id}`, { key })).json().data;
      expect(after).toMatchObject({ privacy: 1, generated_at: doomed.generated_at, results: doomed.results });
    });

    it("deletes once, and only the caller's report", async () => {
      const target = (await store({ url: `${site.url}/` })).json().data.id;
      expect((await call(api, "DELETE", `/api/v1/reports/${target}`, { key: other })).statusCode).toBe(404);
      expect(
        (await call(api, "PATCH", `/api/v1/reports/${target}`, { key: other, form: { privacy: "0" } }))
          .statusCode,
      ).toBe(404);
      const deleted = await call(api, "DELETE", `/api/v1/reports/${target}`, { key });
      expect(deleted.statusCode).toBe(200);
      expect(deleted.json()).toEqual({ id: target, object: "report", deleted: true, status: 200 });
      expect((await call(api, "DELETE", `/api/v1/reports/${target}`, { key })).statusCode).toBe(404);
      expect((await call(api, "GET", `/api/v1/reports/${target}`, { key })).statusCode).toBe(404);
    });
  });

  describe("list", () => {
    let lister: string;
    let pager: string;
    beforeAll(async () => {
      lister = await api.newUser("lister@example.com");
      const listerId = (await api.accounts.authenticate(lister))?.account.id as number;
      const reports = new ReportStore(api.database.store);
      const base = Date.parse("2026-01-01T00:00:00Z");
      const specs = [
        { url: "https://www.alpha.com/pricing", score: 91 },
        { url: "https://alpha.com/blog/100%_real", score: 40 },
        { url: "https://beta.org/shop?item=a_b", score: 65 },
        { url: "https://beta.org/", score: 65 },
        { url: "https://gamma.net/Path\\with\\backslash", score: 82 },
        { url: "https://alpha.com/about", score: 77 },
      ];
      for (const [index, spec] of specs.entries()) {
        await reports.insert(
          seedRow(listerId, { ...spec, generatedAt: new Date(base + ((index * 7) % 5) * 3_600_000) }),
        );
      }
      pager = await api.newUser("pager@example.com");
      const pagerId = (await api.accounts.authenticate(pager))?.account.id as number;
      for (let index = 0; index < 17; index++) {
        await reports.insert(seedRow(pagerId, { url: `https://filler.example/${index}`, score: 50 }));
      }
    });

    const list = async (query: string, as = lister) => {
      const response = await call(api, "GET", `/api/v1/reports${query}`, { key: as });
      expect(response.statusCode).toBe(200);
      return response.json() as {
        data: Array<{ id: number; url: string; score: number; generated_at: string }>;
        meta: Record<string, unknown>;
        links: Record<string, string | null>;
      };
    };

    it("defaults to newest first, 10 per page, and shows only the caller's reports", async () => {
      const body = await list("");
      expect(body.data.map((report) => report.url)).toEqual([
        "https://alpha.com/about",
        "https://gamma.net/Path\\with\\backslash",
        "https://beta.org/",
        "https://beta.org/shop?item=a_b",
        "https://alpha.com/blog/100%_real",
        "https://www.alpha.com/pricing",
      ]);
      expect(body.meta).toMatchObject({
        current_page: 1,
        from: 1,
        to: 6,
        last_page: 1,
        per_page: 10,
        total: 6,
      });
      expect(body.data[0]).toHaveProperty("results");
    });

    it("searches URLs case-insensitively with %, _ and \\ taken literally", async () => {
      expect((await list("?search=ALPHA")).data).toHaveLength(3);
      expect((await list("?search=100%25_")).data.map((report) => report.url)).toEqual([
        "https://alpha.com/blog/100%_real",
      ]);
      expect((await list("?search=a_b")).data.map((report) => report.url)).toEqual([
        "https://beta.org/shop?item=a_b",
      ]);
      expect((await list("?search=%5Cwith%5C")).data).toHaveLength(1);
      expect((await list("?search=%25")).data).toHaveLength(1);
      expect((await list("?search=_")).data).toHaveLength(2);
      expect((await list("?search=zzz")).data).toHaveLength(0);
      expect((await list("?search=al&search_by=url")).data).toHaveLength(3);
    });

    it("filters by exact project and by result", async () => {
      expect((await list("?project=alpha.com")).data).toHaveLength(3);
      expect((await list("?project=alpha")).data).toHaveLength(0);
      expect((await list("?result=decent")).data.map((report) => report.score)).toEqual([77, 65, 65]);
      expect((await list("?result=good&project=gamma.net")).data).toHaveLength(1);
    });

    it("sorts by each key in both directions, ties broken by id", async () => {
      const ascByScore = (await list("?sort_by=result&sort=asc")).data;
      expect(ascByScore.map((report) => report.score)).toEqual([40, 65, 65, 77, 82, 91]);
      expect(ascByScore[1]?.id ?? 0).toBeLessThan(ascByScore[2]?.id ?? 0);
      const descByScore = (await list("?sort_by=result&sort=desc")).data;
      expect(descByScore[3]?.id ?? 0).toBeGreaterThan(descByScore[4]?.id ?? 0);
      const byUrl = (await list("?sort_by=url&sort=asc")).data.map((report) => report.url);
      expect(byUrl).toEqual([...byUrl].sort());
      const byGenerated = (await list("?sort_by=generated_at&sort=asc")).data.map(
        (report) => report.generated_at,
      );
      expect(byGenerated).toEqual([...byGenerated].sort());
      const byId = (await list("?sort_by=id&sort=asc")).data.map((report) => report.id);
      expect(byId).toEqual([...byId].sort((a, b) => a - b));
    });

    it("pages with the Laravel envelope and a Link header", async () => {
      const response = await call(api, "GET", "/api/v1/reports?per_page=10&page=2&sort=asc", { key: pager });
      const body = response.json();
      expect(body.meta).toMatchObject({
        current_page: 2,
        from: 11,
        to: 17,
        last_page: 2,
        per_page: 10,
        total: 17,
      });
      expect(body.links.prev).toMatch(/\/api\/v1\/reports\?sort_by=id&sort=asc&per_page=10&page=1$/);
      expect(body.links.next).toBeNull();
      expect(body.meta.links.map((link: { label: string }) => link.label)).toEqual([
        "&laquo; Previous",
        "1",
        "2",
        "Next &raquo;",
      ]);
      expect(response.headers.link).toContain('rel="first"');
      expect(response.headers.link).toContain('rel="prev"');
      const past = (await call(api, "GET", "/api/v1/reports?page=9", { key: pager })).json();
      expect(past.data).toEqual([]);
      expect(past.meta).toMatchObject({ from: null, to: null, current_page: 9, last_page: 2 });
      const empty = (await call(api, "GET", "/api/v1/reports?search=nothing-matches", { key })).json();
      expect(empty.meta).toMatchObject({ from: null, to: null, last_page: 1, total: 0 });
    });

    it.each([
      ["search_by=title", "search_by", "The search_by field must be one of url."],
      ["sort_by=score", "sort_by", "The sort_by field must be one of id, generated_at, url, result."],
      ["sort=up", "sort", "The sort field must be one of desc, asc."],
      ["per_page=20", "per_page", "The per_page field must be one of 10, 25, 50, 100."],
      ["per_page=010", "per_page", "The per_page field must be an integer."],
      ["result=great", "result", "The result field must be one of good, decent, bad."],
      ["page=0", "page", "The page field must be at least 1."],
      ["page=-1", "page", "The page field must be an integer."],
      ["page=1.5", "page", "The page field must be an integer."],
      ["page=1&page=2", "page", "The page field must be an integer."],
      [`search=${"a".repeat(256)}`, "search", "The search field must not be greater than 255 characters."],
    ])("refuses ?%s with 422 naming %s", async (query, field, message) => {
      const response = await call(api, "GET", `/api/v1/reports?${query}`, { key });
      expect(response.statusCode).toBe(422);
      expect(response.json().errors[field]).toEqual([message]);
    });

    it("treats empty parameters as absent", async () => {
      const body = await list("?search=&project=&per_page=&sort=");
      expect(body.meta).toMatchObject({ per_page: 10, total: 6 });
    });
  });

  describe("projects", () => {
    let owner: string;
    beforeAll(async () => {
      owner = await api.newUser("projects@example.com");
      const ownerId = (await api.accounts.authenticate(owner))?.account.id as number;
      const intruderId = (await api.accounts.authenticate(other))?.account.id as number;
      const reports = new ReportStore(api.database.store);
      const at = (day: number) => new Date(Date.UTC(2026, 0, day));
      await reports.insert(
        seedRow(ownerId, { url: "https://shop.example/a", score: 90, generatedAt: at(3) }),
      );
      await reports.insert(
        seedRow(ownerId, { url: "https://shop.example/b", score: 61, generatedAt: at(5) }),
      );
      await reports.insert(seedRow(ownerId, { url: "https://blog.example/", score: 30, generatedAt: at(1) }));
      await reports.insert(
        seedRow(intruderId, { url: "https://shop.example/c", score: 10, generatedAt: at(2) }),
      );
    });

    it("lists the caller's projects with counts, mean score and dates", async () => {
      const response = await call(api, "GET", "/api/v1/projects", { key: owner });
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body.data).toEqual([
        {
          object: "project",
          project: "shop.example",
          reports: 2,
          score: 76,
          result: "decent",
          created_at: "2026-01-03T00:00:00.000000Z",
          last_generated_at: "2026-01-05T00:00:00.000000Z",
        },
        {
          object: "project",
          project: "blog.example",
          reports: 1,
          score: 30,
          result: "bad",
          created_at: "2026-01-01T00:00:00.000000Z",
          last_generated_at: "2026-01-01T00:00:00.000000Z",
        },
      ]);
      expect(body.meta.total).toBe(2);
      const byName = (
        await call(api, "GET", "/api/v1/projects?sort_by=project&sort=asc", { key: owner })
      ).json();
      expect(byName.data.map((project: { project: string }) => project.project)).toEqual([
        "blog.example",
        "shop.example",
      ]);
      const searched = (
        await call(api, "GET", "/api/v1/projects?search=SHOP&search_by=project", { key: owner })
      ).json();
      expect(searched.data.map((project: { project: string }) => project.project)).toEqual(["shop.example"]);
      const invalid = await call(api, "GET", "/api/v1/projects?sort_by=url", { key: owner });
      expect(invalid.json().errors.sort_by).toEqual([
        "The sort_by field must be one of created_at, project.",
      ]);
    });

    it("deletes exactly the caller's reports of the project", async () => {
      expect((await call(api, "DELETE", "/api/v1/projects/nothing.example", { key: owner })).statusCode).toBe(
        404,
      );
      const deleted = await call(api, "DELETE", "/api/v1/projects/shop.example", { key: owner });
      expect(deleted.json()).toEqual({
        id: "shop.example",
        object: "project",
        deleted: true,
        deleted_reports: 2,
        status: 200,
      });
      expect((await call(api, "DELETE", "/api/v1/projects/shop.example", { key: owner })).statusCode).toBe(
        404,
      );
      const survivors = (
        await call(api, "GET", "/api/v1/reports?project=shop.example", { key: other })
      ).json();
      expect(survivors.data).toHaveLength(1);
    });
  });

  describe("account, checks and errors", () => {
    it("shows the caller's account with masked keys", async () => {
      const response = await call(api, "GET", "/api/v1/account", { key });
      expect(response.json().data).toMatchObject({
        id: userId,
        object: "account",
        email: "owner@example.com",
      });
      const [shown] = response.json().data.api_keys;
      expect(shown.key).toBe(`${key.slice(0, 8)}…${key.slice(-4)}`);
      expect(response.body).not.toContain(key);
    });

    it("serves the catalogue of checks", async () => {
      const response = await call(api, "GET", "/api/v1/checks", { key });
      expect(response.json().data).toHaveLength(checks.length);
      expect(response.json().data[0]).toEqual(
        expect.objectContaining({ id: "title", how_to_fix: expect.any(String) }),
      );
    });

    it("answers 405 with Allow for a known path and 404 for an unknown one", async () => {
      const wrongMethod = await call(api, "DELETE", "/api/v1/reports", { key });
      expect(wrongMethod.statusCode).toBe(405);
      expect(wrongMethod.headers.allow).toBe("GET, HEAD, POST");
      const unknown = await call(api, "GET", "/api/v1/nothing-here", { key });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().message).toBe("Resource not found.");
    });

    it("sends security headers on every response", async () => {
      for (const [url, authorised] of [
        ["/api/v1/reports", true],
        ["/api/v1/reports", false],
        ["/api/v1/nothing", true],
        ["/healthz", false],
      ] as const) {
        const headers: Record<string, string> = authorised ? { authorization: `Bearer ${key}` } : {};
        const response = await api.app.inject({ method: "GET", url, headers });
        expect(response.headers["x-content-type-options"]).toBe("nosniff");
        expect(response.headers["x-frame-options"]).toBe("DENY");
        expect(response.headers["content-security-policy"]).toBe(
          "default-src 'none'; frame-ancestors 'none'; base-uri 'none'",
        );
        expect(response.headers["referrer-policy"]).toBe("no-referrer");
      }
    });

    it("echoes a sane request id and makes one otherwise", async () => {
      const echoed = await call(api, "GET", "/api/v1/account", {
        key,
        headers: { "x-request-id": "abc-123" },
      });
      expect(echoed.headers["x-request-id"]).toBe("abc-123");
      const replaced = await call(api, "GET", "/api/v1/nothing", {
        key,
        headers: { "x-request-id": "bad id\u0001" },
      });
      expect(replaced.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
      expect(replaced.json().request_id).toBe(replaced.headers["x-request-id"]);
    });
  });
});
