/**
 * Crawls driven through the API or the web pages in tests: the HTML of a small page to crawl, the settings a
 * crawl test starts the service with, waiting for a crawl to end (through the API, or until its web page stops
 * reloading itself), and a web client signed in as a new user.
 */
import type { FastifyInstance } from "fastify";
import { call, type TestApi } from "./api.js";
import { eventually } from "./job-queues.js";
import { WebClient } from "./web-client.js";

/** A small HTML page with a title, a heading of the same text and the body given. */
export const testPage = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><title>${title}</title></head><body><h1>${title}</h1>${body}</body></html>`;

/** The service's settings for crawl tests: no delay between a site's fetches, up to 5 crawls at once per user. */
export const crawlTestSettings = { PAGEGRADE_CRAWL_DELAY_MS: "0", PAGEGRADE_CRAWLS_PER_USER: "5" };

/** Waits until the crawl is complete, cancelled or failed; returns it as `GET /crawls/{id}` shows it then. */
export async function endedCrawl(api: TestApi, key: string, id: number, timeoutMs = 30_000) {
  const shown = async () => (await call(api, "GET", `/api/v1/crawls/${id}`, { key })).json().data;
  await eventually(
    async () => ["complete", "cancelled", "failed"].includes((await shown()).status),
    "the crawl to finish",
    timeoutMs,
  );
  return shown();
}

/** Waits until the crawl's web page at `path` no longer reloads itself (the crawl ended); returns the page. */
export async function endedCrawlPage(client: WebClient, path: string, timeoutMs = 20_000) {
  await eventually(
    async () => !(await client.get(path)).body.includes('http-equiv="refresh"'),
    "the crawl",
    timeoutMs,
  );
  return client.get(path);
}

/** A web client signed in as a new user with this e-mail (registered through the sign-up form). */
export async function signedInClient(app: FastifyInstance, email: string): Promise<WebClient> {
  const client = new WebClient(app);
  await client.signUp(email);
  return client;
}

/** Starts a crawl of `url` from the web form and waits until its page says it is complete; returns its path. */
export async function completeWebCrawl(client: WebClient, url: string, timeoutMs = 60_000): Promise<string> {
  const started = await client.post("/crawls", { url });
  if (started.statusCode !== 303) throw new Error(`the crawl form answered ${started.statusCode}`);
  const path = started.headers.location as string;
  await eventually(
    async () => (await client.get(path)).body.includes("<h2>Complete</h2>"),
    "the crawl",
    timeoutMs,
  );
  return path;
}
