import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { catalogue } from "../../src/analysis/catalogue.js";
import { databaseKinds, startApi, type TestApi } from "../helpers/api.js";
import { html, type LocalServer, startServer } from "../helpers/local-server.js";
import { awayFromWindowEdge } from "../helpers/rate-window.js";
import { seedColumns } from "../helpers/seed.js";
import { WebClient } from "../helpers/web-client.js";

const hostilePage = `<!doctype html><html lang="en"><head><title><script>alert(1)</script></title></head>
<body><h1>Head <img src=x onerror=alert(2)></h1><a href="/x">"><script>alert(3)</script></a></body></html>`;

describe.each(databaseKinds)("the web pages on %s", (kind) => {
  let api: TestApi;
  let site: LocalServer;

  beforeAll(async () => {
    site = await startServer({
      "/": html("<!doctype html><html lang=en><title>Bicycle repair at home</title><h1>Bicycles</h1></html>"),
      "/hostile": html(hostilePage),
    });
    api = await startApi(kind);
  });
  afterAll(async () => {
    await api.close();
    await site.close();
  });

  const signUp = async (email: string) => {
    const client = new WebClient(api.app);
    expect((await client.signUp(email)).statusCode).toBe(200);
    return client;
  };

  it("serves the landing page with a strict Content-Security-Policy", async () => {
    const response = await new WebClient(api.app).get("/");
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain("Create a free account");
    const csp = String(response.headers["content-security-policy"]);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain("unsafe-inline");
    expect(response.headers["x-frame-options"]).toBe("DENY");
  });

  it("registers with a redirect to the account page's first steps, keeps what was typed on errors (not the password), and shows an API key once, made there", async () => {
    const client = new WebClient(api.app);
    const invalid = await client.post("/register", { email: "not-an-email", password: "short" });
    expect(invalid.statusCode).toBe(422);
    expect(invalid.body).toContain('value="not-an-email"');
    expect(invalid.body).toContain("Enter a valid e-mail address.");
    expect(invalid.body).not.toContain("short");

    const created = await client.post("/register", {
      email: "web@example.com",
      password: "correct horse battery",
    });
    // POST/redirect/GET: a refresh of the page it ends on does not sign up again, and the redirect carries no key.
    expect(created.statusCode).toBe(303);
    expect(created.headers.location).toBe("/account");
    expect(created.body).not.toContain("pgk_");
    const sessionCookie = (
      created.cookies as Array<{ name: string; httpOnly?: boolean; sameSite?: string }>
    ).find((cookie) => cookie.name === "pg_session");
    expect(sessionCookie).toMatchObject({ httpOnly: true, sameSite: "Lax" });

    // The account page offers the next steps: analyse a first page, create an API key. It has no key yet.
    const welcome = await client.get("/account");
    expect(welcome.statusCode).toBe(200);
    expect(welcome.body).toContain("Welcome: your account is ready.");
    expect(welcome.body).toContain("Next: analyse your first page");
    expect(welcome.body).toMatch(
      /<form method="post" action="\/reports"[^>]*>[\s\S]*?name="url"[\s\S]*?Analyse your first page<\/button>/,
    );
    expect(welcome.body).toContain('<form method="post" action="/account/key">');
    expect(welcome.body).toContain("Create an API key</button>");
    expect(welcome.body).toContain("You have no API key.");
    expect(welcome.body).not.toContain("pgk_");
    expect(
      await api.accounts.listKeys(
        (await api.accounts.verifyLogin("web@example.com", "correct horse battery"))?.id as number,
      ),
    ).toEqual([]);

    // The first step works from there: the form analyses a page.
    const analysed = await client.post("/reports", { url: `${site.url}/` });
    expect(analysed.statusCode).toBe(303);
    expect(String(analysed.headers.location)).toMatch(/^\/reports\/\d+$/);

    // The key is shown in the answer to the POST that made it, once.
    const made = await client.post("/account/key");
    expect(made.statusCode).toBe(200);
    expect(made.headers["cache-control"]).toBe("no-store");
    const key = /id="new-api-key">(pgk_[A-Za-z0-9_-]{43})</.exec(made.body)?.[1];
    expect(key).toBeDefined();
    const api1 = await api.app.inject({
      method: "GET",
      url: "/api/v1/account",
      headers: { authorization: `Bearer ${key}` },
    });
    expect(api1.json().data.email).toBe("web@example.com");

    const again = await client.get("/account");
    expect(again.body).not.toContain(key as string);
    expect(again.body).toContain(`${key?.slice(0, 8)}…${key?.slice(-4)}`);
    expect(again.body).not.toContain("Next: analyse your first page");

    const duplicate = await new WebClient(api.app).post("/register", {
      email: "web@example.com",
      password: "another long one",
    });
    expect(duplicate.statusCode).toBe(422);
    expect(duplicate.body).toContain("An account with this e-mail already exists.");
  });

  it("refuses forms without the CSRF token", async () => {
    const client = new WebClient(api.app);
    const response = await client.post("/register", {
      _csrf: "forged",
      email: "csrf@example.com",
      password: "long enough pw",
    });
    expect(response.statusCode).toBe(403);
    expect(response.body).toContain("This form has expired");
  });

  it("logs in and out, and throttles failed log-ins", async () => {
    await awayFromWindowEdge();
    await signUp("login@example.com");
    const client = new WebClient(api.app);
    const wrong = await client.post("/login", { email: "login@example.com", password: "wrong password" });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).toContain("The e-mail or the password is not correct.");
    expect(wrong.body).toContain('value="login@example.com"');
    const right = await client.post("/login", {
      email: "LOGIN@example.com",
      password: "correct horse battery",
    });
    expect(right.statusCode).toBe(303);
    expect((await client.get("/reports")).statusCode).toBe(200);
    await client.post("/logout");
    expect((await client.get("/reports")).headers.location).toBe("/login");

    const attacker = new WebClient(api.app, "192.0.2.10");
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 11; attempt++) {
      statuses.push(
        (await attacker.post("/login", { email: "victim@example.com", password: `guess ${attempt}` }))
          .statusCode,
      );
    }
    expect(statuses.slice(0, 10).every((status) => status === 401)).toBe(true);
    const limited = await attacker.post("/login", { email: "victim@example.com", password: "guess" });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers["retry-after"]).toBeDefined();
    expect(limited.body).toContain("Too many failed log-ins");
  });

  it("analyses a page from the dashboard and shows its report, with hostile page text rendered inert", async () => {
    const client = await signUp("dashboard@example.com");
    const analysed = await client.post("/reports", { url: `${site.url}/hostile`, privacy: "0" });
    expect(analysed.statusCode).toBe(303);
    const page = await client.get(analysed.headers.location as string);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain("&#60;script&#62;alert(1)&#60;/script&#62;");
    expect(page.body).not.toContain("<script>alert(");
    expect(page.body).not.toContain("onerror=alert");
    expect(page.body).toMatch(/<svg class="gauge"/);
    const tally = /<p class="tally">(\d+) checks: ([^<]*)<\/p>/.exec(page.body);
    expect(tally?.[1]).toBe(String(catalogue.length));
    const counted = (tally?.[2] ?? "").split(", ").map((part) => Number.parseInt(part, 10));
    expect(counted.reduce((sum, count) => sum + count, 0)).toBe(catalogue.length);

    const list = await client.get("/reports?sort_by=url&sort=asc&per_page=25");
    expect(list.body).toContain(`${site.url}/hostile`);
    const invalid = await client.get("/reports?sort_by=bogus");
    expect(invalid.body).toContain("Ignored invalid sort_by.");

    const bad = await client.post("/reports", { url: "ftp://example.com/", privacy: "1" });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain("The url field must be an absolute http or https URL.");
    expect(bad.body).toContain('value="ftp://example.com/"');
  });

  it("applies report privacy: private is 404 to others, password needs the password, and a new password revokes access", async () => {
    await awayFromWindowEdge();
    const owner = await signUp("owner-web@example.com");
    const id = Number(
      ((await owner.post("/reports", { url: `${site.url}/`, privacy: "1" })).headers.location as string)
        .split("/")
        .pop(),
    );
    const stranger = new WebClient(api.app);
    const hidden = await stranger.get(`/reports/${id}`);
    expect(hidden.statusCode).toBe(404);
    expect((await owner.get(`/reports/${id}`)).headers["x-robots-tag"]).toBe("noindex");

    await owner.post(`/reports/${id}/privacy`, { privacy: "2", password: "first secret" });
    const form = await stranger.get(`/reports/${id}`);
    expect(form.statusCode).toBe(200);
    expect(form.body).toContain("This report is protected");
    expect(form.headers["x-robots-tag"]).toBe("noindex");
    expect((await stranger.post(`/reports/${id}/unlock`, { password: "nope" })).statusCode).toBe(401);
    expect((await stranger.post(`/reports/${id}/unlock`, { password: "first secret" })).statusCode).toBe(303);
    expect((await stranger.get(`/reports/${id}`)).body).toContain("Report for");

    await owner.post(`/reports/${id}/privacy`, { privacy: "2", password: "second secret" });
    expect((await stranger.get(`/reports/${id}`)).body).toContain("This report is protected");

    const guesser = new WebClient(api.app, "192.0.2.20");
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 6; attempt++)
      statuses.push(
        (await guesser.post(`/reports/${id}/unlock`, { password: `guess ${attempt}` })).statusCode,
      );
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    const stillLocked = await guesser.post(`/reports/${id}/unlock`, { password: "second secret" });
    expect(stillLocked.statusCode).toBe(429);
    expect(stillLocked.body).toContain("Too many wrong passwords");
    expect(
      (
        await new WebClient(api.app, "192.0.2.21").post(`/reports/${id}/unlock`, {
          password: "second secret",
        })
      ).statusCode,
    ).toBe(303);

    await owner.post(`/reports/${id}/privacy`, { privacy: "0" });
    const open = await new WebClient(api.app).get(`/reports/${id}`);
    expect(open.statusCode).toBe(200);
    expect(open.headers["x-robots-tag"]).toBeUndefined();
  });

  it("deletes a report and a project only after confirmation", async () => {
    const client = await signUp("deleter@example.com");
    const id = Number(
      ((await client.post("/reports", { url: `${site.url}/`, privacy: "1" })).headers.location as string)
        .split("/")
        .pop(),
    );
    const confirm = await client.get(`/reports/${id}/delete`);
    expect(confirm.body).toContain("Yes, delete");
    expect((await client.post(`/reports/${id}/delete`)).headers.location).toBe("/reports");
    expect((await client.get(`/reports/${id}`)).statusCode).toBe(404);

    await client.post("/reports", { url: `${site.url}/`, privacy: "1" });
    const projects = await client.get("/projects");
    expect(projects.body).toContain("127.0.0.1");
    expect((await client.get("/projects/127.0.0.1/delete")).body).toContain("Delete the project 127.0.0.1");
    expect((await client.post("/projects/127.0.0.1/delete")).headers.location).toBe("/projects");
    expect((await client.get("/projects")).body).toContain("No projects yet");
  });

  it("searches, sorts and pages the projects, keeping the state in the URL", async () => {
    const client = await signUp("many-projects@example.com");
    const owner = await api.accounts.verifyLogin("many-projects@example.com", "correct horse battery");
    const rows = Array.from({ length: 30 }, (_, index) =>
      seedColumns(owner?.id as number, {
        url: `https://site-${String(index).padStart(2, "0")}.example/`,
        score: 60,
      }),
    );
    await api.database.store.db.insertInto("reports").values(rows).execute();

    const first = await client.get("/projects?sort_by=project&sort=asc&per_page=10");
    const names = (body: string) =>
      [...body.matchAll(/<td data-label="Project"><a href="\/reports\?project=([^"]+)"/g)].map((m) => m[1]);
    expect(names(first.body)).toEqual(
      Array.from({ length: 10 }, (_, index) => `site-${String(index).padStart(2, "0")}.example`),
    );
    expect(first.body).toContain("Page 1 of 3 · 30 projects");
    expect(first.body).toContain(
      'href="/projects?sort_by=project&#38;sort=asc&#38;per_page=10&#38;page=2" rel="next"',
    );

    const third = await client.get("/projects?sort_by=project&sort=asc&per_page=10&page=3");
    expect(names(third.body)).toHaveLength(10);
    expect(third.body).toContain('rel="prev"');
    expect(third.body).not.toContain('rel="next"');

    const searched = await client.get("/projects?search=SITE-2&sort_by=project&sort=desc");
    expect(names(searched.body)).toEqual(
      Array.from({ length: 10 }, (_, index) => `site-${29 - index}.example`),
    );
    expect((await client.get("/projects?search=nothing-like-it")).body).toContain("No projects match.");

    const invalid = await client.get("/projects?sort_by=bogus&per_page=7&page=0");
    expect(invalid.statusCode).toBe(200);
    expect(invalid.body).toContain("Ignored invalid sort_by, per_page, page.");
  });

  it("answers ids no report, crawl or webhook can have with the 404 page, without asking the store", async () => {
    const client = await signUp("large-ids@example.com");
    // 2147483648 is one past the largest id an integer column holds; PostgreSQL refuses it in a query.
    for (const path of [
      "/reports/2147483648",
      "/reports/2147483648/manage",
      "/reports/123456789012/manage",
      "/reports/1/analyses/2147483648",
      "/crawls/2147483648",
      "/account/webhooks/2147483648",
    ]) {
      const response = await client.get(path);
      expect(response.statusCode, path).toBe(404);
      expect(response.body, path).toContain("Page not found");
    }
    expect((await client.post("/reports/2147483648/delete")).statusCode).toBe(404);
    expect((await client.post("/reports/2147483648/unlock", { password: "whatever it is" })).statusCode).toBe(
      404,
    );
  });

  it("answers unknown pages with an HTML 404", async () => {
    const response = await new WebClient(api.app).get("/no/such/page");
    expect(response.statusCode).toBe(404);
    expect(response.headers["content-type"]).toContain("text/html");
  });
});
