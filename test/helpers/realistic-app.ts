/**
 * Realistic data for looking at the web pages in real Chromium: a generated site of a few hundred pages served
 * from 127.0.0.1 (missing descriptions, shared titles, images without alt text, links to 404s, a redirect chain),
 * the service over SQLite with a user signed up through the web form, a rendered (or, without Chromium, raw)
 * report of a page that fails many checks, analysed twice (a score change, a chart), and two complete crawls of
 * the site (so the project page and the crawl comparison have something to show). Used by test/browser/page-layout.test.ts and scripts/screenshots.ts.
 */
import type { Browser, BrowserContext } from "playwright-core";
import { startService } from "./browser.js";
import { type Handler, html, type LocalServer, notFound, redirect, startServer } from "./local-server.js";

/** Pages of the generated site reachable by links (404s and redirects come on top). */
export const sitePages = 300;

const gif = "data:image/gif;base64,R0lGODlhAQABAAAAACw=";

/** Page `index` of the site: a tree of 8 children a page, with defects on a pattern. */
function sitePage(index: number): string {
  const children = Array.from({ length: 8 }, (_, slot) => index * 8 + slot + 1).filter(
    (child) => child < sitePages,
  );
  const title = index % 5 === 0 ? "Bicycle repair" : `Bicycle repair: page ${index}`;
  const description =
    index % 3 === 0 ? "" : `<meta name="description" content="How we repair bicycles, part ${index}.">`;
  const image = index % 4 === 0 ? `<img src="${gif}">` : `<img src="${gif}" alt="A wheel">`;
  const broken = index % 7 === 0 ? `<a href="/gone/${index}">An old page</a>` : "";
  const moved = index % 11 === 0 ? '<a href="/moved">A moved page</a>' : "";
  const links = children.map((child) => `<a href="/p/${child}">Part ${child}</a>`).join(" ");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>${description}
<meta name="viewport" content="width=device-width"></head><body><h1>${title}</h1>
<p>Wheels, chains and brakes, repaired at home in part ${index} of our guide.</p>${image}
<nav><a href="/">Home</a> ${links} ${broken} ${moved}</nav></body></html>`;
}

/** A page that fails many checks: no lang, no description, 24 images without alt, vague links, a 404 link. */
export const badPage = `<!doctype html><html><head><title>x</title></head><body>
<img src="${gif}"> `.concat(
  Array.from({ length: 23 }, () => `<img src="${gif}">`).join(""),
  Array.from({ length: 30 }, (_, index) => `<a href="/p${index}">here</a> <img src="/i${index}.png">`).join(
    "",
  ),
  '<a href="/gone">gone</a><script>console.error("broken")</script></body></html>',
);

export async function startRealisticSite(): Promise<LocalServer> {
  const routes: Record<string, Handler> = {
    "/": html(sitePage(0)),
    "/bad": html(badPage),
    "/moved": redirect("/moved-again"),
    "/moved-again": redirect("/p/1"),
  };
  const fallback: Handler = (request, response) => {
    const match = /^\/p\/(\d+)$/.exec(new URL(request.url ?? "/", "http://x").pathname);
    const index = match ? Number(match[1]) : -1;
    if (index > 0 && index < sitePages) html(sitePage(index))(request, response);
    else notFound(request, response);
  };
  return startServer(routes, { fallback });
}

export interface RealisticApp {
  service: Awaited<ReturnType<typeof startService>>;
  site: LocalServer;
  key: string;
  signedIn: BrowserContext;
  /** The app's pages worth looking at, by name: path. */
  paths: Record<string, string>;
  reportMode: string;
  close(): Promise<void>;
}

async function api(service: { url: string }, key: string, method: string, path: string, body?: unknown) {
  const answer = await fetch(`${service.url}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = (await answer.json()) as { data: Record<string, unknown> };
  if (!answer.ok) throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(json)}`);
  return json.data;
}

/** Polls a crawl until it is complete. */
async function completedCrawl(service: { url: string }, key: string, id: number, timeoutMs = 150_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const crawl = await api(service, key, "GET", `/crawls/${id}`);
    if (crawl.status === "complete") return;
    if (crawl.status !== "running" && crawl.status !== "queued") throw new Error(`crawl ${crawl.status}`);
    if (Date.now() > deadline) throw new Error("the crawl took too long");
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Starts the service and the site, signs up (a member of one team), analyses the bad page and crawls the site twice. */
export async function startRealisticApp(browser: Browser, rendered = true): Promise<RealisticApp> {
  const site = await startRealisticSite();
  const service = await startService({
    PAGEGRADE_CRAWL_DELAY_MS: "0",
    PAGEGRADE_CRAWL_HOST_CONCURRENCY: "4",
  });
  const signedIn = await browser.newContext();
  const page = await signedIn.newPage();
  await page.goto(`${service.url}/register`);
  await page.fill("#email", "layout@example.com");
  await page.fill("#password", "correct horse battery");
  await page.click("button[type=submit]");
  // Sign-up leads to the account page; its button makes the API key, shown once in that answer.
  await page.waitForURL(`${service.url}/account`);
  await page.getByRole("button", { name: "Create an API key" }).click();
  await page.waitForSelector("#new-api-key");
  const key = ((await page.textContent("#new-api-key")) ?? "").trim();
  await page.close();
  // A member of a team, as most agency users are: every signed-in page's header has the workspace switcher (the
  // pages themselves stay in the user's own workspace).
  await api(service, key, "POST", "/teams", { name: "Acme agency" });

  let report: Record<string, unknown>;
  try {
    report = await api(service, key, "POST", "/reports", {
      url: `${site.url}/bad`,
      mode: rendered ? "rendered" : "raw",
    });
  } catch {
    report = await api(service, key, "POST", "/reports", { url: `${site.url}/bad` });
  }
  // Analysed again the same day: the report has a score change (the list's marker) and a two-point chart.
  await api(service, key, "PUT", `/reports/${report.id}`, { results: 1 });
  const crawlIds: number[] = [];
  for (let run = 0; run < 2; run++) {
    const crawl = await api(service, key, "POST", "/crawls", {
      url: `${site.url}/`,
      max_pages: sitePages + 50,
    });
    await completedCrawl(service, key, crawl.id as number);
    crawlIds.push(crawl.id as number);
  }
  const crawl = `/crawls/${crawlIds[1]}`;
  const checks = (await fetch(`${service.url}/api/v1${crawl}/checks`, {
    headers: { authorization: `Bearer ${key}` },
  }).then((answer) => answer.json())) as { data: Array<{ check: string }> };
  const reportPath = `/reports/${report.id}`;
  const paths: Record<string, string> = {
    reports: "/reports",
    report: reportPath,
    history: `${reportPath}/history`,
    manage: `${reportPath}/manage`,
    "delete-report": `${reportPath}/delete`,
    projects: "/projects",
    project: `/projects/${new URL(site.url).hostname}`,
    account: "/account",
    webhooks: "/account/webhooks",
    crawls: "/crawls",
    crawl,
    "crawl-first": `/crawls/${crawlIds[0]}`,
    "crawl-issue": `${crawl}?issue=broken-links`,
    "crawl-links": `${crawl}/links`,
    "crawl-check-pages": `${crawl}/checks/${checks.data[0]?.check ?? "title"}/pages`,
    "crawl-diff": `${crawl}/diff`,
    audit: `${crawl}/audit`,
    "audit-issue": `${crawl}/audit/issues/broken-links`,
  };
  return {
    service,
    site,
    key,
    signedIn,
    paths,
    reportMode: String(report.mode ?? "raw"),
    close: async () => {
      await signedIn.close();
      await service.close();
      await site.close();
    },
  };
}
