/**
 * The guards of every web page, found from the routes fastify has registered (printRoutes), so a new page cannot
 * forget them: every state-changing request without the form's CSRF token is refused with the "form expired"
 * page (403), whoever sends it, before its route acts; every page outside the short list of pages anyone may
 * open sends a visitor without a session to /login (303).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApi, type TestApi } from "../helpers/api.js";
import { html, type LocalServer, startServer } from "../helpers/local-server.js";
import { WebClient } from "../helpers/web-client.js";

/** Pages anyone may open (a report's or a crawl's own privacy rules decide who sees it). */
const publicPages = [
  "GET /",
  // The API's documentation (Swagger UI): its page, its OpenAPI document and its files.
  "GET /docs",
  "GET /docs/",
  "GET /docs/json",
  "GET /docs/yaml",
  "GET /docs/*",
  "GET /docs/static/index.html",
  "GET /docs/static/swagger-initializer.js",
  "GET /docs/static/theme/pagegrade.css",
  "GET /docs/static/theme/pagegrade.js",
  "GET /assets/:name",
  "GET /register",
  "GET /login",
  // Password reset by e-mail (the link is the credential).
  "GET /forgot-password",
  "GET /reset-password",
  // A team invitation's link: tells a visitor to sign in with the invited address (joining is a signed-in POST).
  "GET /invitations/accept",
  // A notification mail's unsubscribe link (its signed token is the credential).
  "GET /unsubscribe",
  "POST /unsubscribe",
  "GET /reports/:id",
  "GET /reports/:id.pdf",
  "GET /reports/:id/screenshot",
  "GET /reports/:id/history",
  "GET /reports/:id/analyses/:analysis",
  // A crawl's shared audit (the crawl's privacy decides who sees it).
  "GET /crawls/:id/audit",
  "GET /crawls/:id/audit.pdf",
  "GET /crawls/:id/audit/issues/:check",
  "POST /register",
  "POST /login",
  "POST /forgot-password",
  "POST /reset-password",
  "POST /logout",
  "POST /reports/:id/unlock",
  "POST /crawls/:id/audit/unlock",
];

const safeMethods = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Forms whose URL carries a signed token instead of the CSRF token (mail clients post them with no form): they
 * act on nothing without that token, whoever sends them.
 */
const signedLinkForms = ["POST /unsubscribe"];

interface Route {
  method: string;
  url: string;
}

/** Every route of the app, from fastify's own listing (one line per path segment, indented four per level). */
function registeredRoutes(listing: string): Route[] {
  const routes: Route[] = [];
  const parents: string[] = [];
  for (const line of listing.split("\n")) {
    const match = /^((?:[│ ] {3})*)(?:├── |└── )(.+?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = (match[1] ?? "").length / 4;
    const url = (parents[depth - 1] ?? "") + (match[2] ?? "");
    parents[depth] = url;
    parents.length = depth + 1;
    for (const method of match[3]?.split(", ") ?? []) routes.push({ method, url });
  }
  return routes;
}

const isWebPage = (route: Route) =>
  route.method !== "HEAD" && !route.url.startsWith("/api/") && route.url !== "/healthz";

describe("the guards of every web page", () => {
  let api: TestApi;
  let site: LocalServer;
  let owner: WebClient;
  let routes: Route[];
  /** Path parameters naming the owner's own resources, so a route that forgot its guard would act. */
  const params: Record<string, string> = { analysis: "1", name: "app.css", project: "127.0.0.1" };
  const pathOf = (route: Route, family = route.url.split("/")[1] ?? "") =>
    route.url.replace(
      /:([a-z]+)/g,
      (_all, name: string) => params[`${family}:${name}`] ?? params[name] ?? "1",
    );

  beforeAll(async () => {
    site = await startServer({
      "/": html("<!doctype html><html lang=en><title>Guarded</title><h1>Guarded</h1></html>"),
      "/hook": (_request, response) => response.writeHead(204).end(),
    });
    api = await startApi("sqlite", { PAGEGRADE_CRAWL_DELAY_MS: "0" });
    routes = registeredRoutes(api.app.printRoutes({ commonPrefix: false })).filter(isWebPage);
    owner = new WebClient(api.app);
    await owner.signUp("guarded@example.com");
    const report = await owner.post("/reports", { url: `${site.url}/`, privacy: "1" });
    params["reports:id"] = String(report.headers.location).split("/").pop() as string;
    const crawl = await owner.post("/crawls", { url: `${site.url}/`, max_pages: "1" });
    params["crawls:id"] = String(crawl.headers.location).split("/").pop() as string;
    await owner.post("/account/webhooks", { url: `${site.url}/hook` });
    params["account:id"] = "1";
    expect((await owner.get(`/account/webhooks/${params["account:id"]}`)).statusCode).toBe(200);
  });
  afterAll(async () => {
    await api.close();
    await site.close();
  });

  it("finds the web routes in fastify's listing, the public ones among them", () => {
    const listed = new Set(routes.map((route) => `${route.method} ${route.url}`));
    for (const page of publicPages) expect(listed, page).toContain(page);
    expect(routes.filter((route) => !safeMethods.has(route.method)).length).toBeGreaterThan(
      publicPages.filter((page) => !page.startsWith("GET ")).length,
    );
    expect(listed).toContain("POST /reports/:id/delete");
    expect(listed).not.toContain("GET /api/v1/reports");
  });

  it("refuses every state-changing request without the CSRF token, before the route acts", async () => {
    const changing = routes.filter((route) => !safeMethods.has(route.method));
    for (const route of changing.filter((route) =>
      signedLinkForms.includes(`${route.method} ${route.url}`),
    )) {
      for (const token of ["", "forged.token"]) {
        const refused = await new WebClient(api.app).post(`${route.url}?token=${token}`);
        expect(refused.statusCode, `${route.method} ${route.url} with the token "${token}"`).toBe(404);
      }
    }
    for (const route of changing.filter(
      (route) => !signedLinkForms.includes(`${route.method} ${route.url}`),
    )) {
      const path = pathOf(route);
      for (const token of ["forged", ""]) {
        const refused = await owner.post(path, { _csrf: token });
        expect(refused.statusCode, `${route.method} ${path} with the token "${token}"`).toBe(403);
        expect(refused.body).toContain("This form has expired");
      }
      const cookie = [...owner.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
      const withoutBody = await api.app.inject({
        method: route.method as "POST",
        url: path,
        headers: { cookie },
      });
      expect(withoutBody.statusCode, `${route.method} ${path} without a body`).toBe(403);
      expect(withoutBody.body).toContain("This form has expired");
      const anonymous = await new WebClient(api.app).post(path, { _csrf: "forged" });
      expect(anonymous.statusCode, `${route.method} ${path} signed out`).toBe(403);
    }
    // Nothing the refused forms would have done happened: still signed in, everything still there.
    expect((await owner.get("/account")).statusCode).toBe(200);
    expect((await owner.get(`/reports/${params["reports:id"]}/manage`)).statusCode).toBe(200);
    expect((await owner.get(`/crawls/${params["crawls:id"]}`)).statusCode).toBe(200);
    const webhook = await owner.get(`/account/webhooks/${params["account:id"]}`);
    expect(webhook.statusCode).toBe(200);
    expect(webhook.body).toContain("Enabled · events");
    expect((await owner.get("/projects")).body).toContain("127.0.0.1");
    const login = await new WebClient(api.app).post("/login", {
      email: "guarded@example.com",
      password: "correct horse battery",
    });
    expect(login.headers.location).toBe("/reports");
  });

  it("sends a visitor without a session from every signed-in page to /login", async () => {
    const signedIn = routes.filter((route) => !publicPages.includes(`${route.method} ${route.url}`));
    expect(signedIn.length).toBeGreaterThan(0);
    for (const route of signedIn) {
      const visitor = new WebClient(api.app);
      const path = pathOf(route);
      const response = safeMethods.has(route.method) ? await visitor.get(path) : await visitor.post(path);
      expect(response.statusCode, `${route.method} ${path}`).toBe(303);
      expect(response.headers.location, `${route.method} ${path}`).toBe("/login");
      // The same request signed in is not sent away, so the redirect above is the guard's.
      const own = safeMethods.has(route.method) ? await owner.get(path) : undefined;
      if (own) expect(own.headers.location, `${route.method} ${path} signed in`).not.toBe("/login");
    }
  });
});
