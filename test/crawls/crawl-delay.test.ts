/**
 * robots.txt's Crawl-delay: read for pagegrade's group (else `*`), capped at 60 s, malformed values ignored; and
 * honoured by a real crawl (`pagegrade crawl` in a child process, no delay of its own configured), whose page
 * requests reach the site no closer together than the delay asks.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { crawlDelayFor, parseRobotsTxt } from "../../src/analysis/robots/robots-txt.js";
import { type Handler, html, type LocalServer, startServer } from "../helpers/local-server.js";

const run = promisify(execFile);
const bin = new URL("../../bin/pagegrade.js", import.meta.url).pathname;

const crawlDelayOf = (robotsTxt: string, agent: string) => crawlDelayFor(parseRobotsTxt(robotsTxt), agent);

describe("Crawl-delay", () => {
  it("takes the delay of pagegrade's group, else the one for every agent", () => {
    const robots = "User-agent: *\nCrawl-delay: 5\n\nUser-agent: PageGrade\nCrawl-delay: 0.5 # ours\n";
    expect(crawlDelayOf(robots, "pagegrade")).toBe(0.5);
    expect(crawlDelayOf(robots, "otherbot")).toBe(5);
    expect(crawlDelayOf("User-agent: otherbot\nCrawl-delay: 9\n", "pagegrade")).toBe(0);
  });

  it("gives a delay to every agent of a group, caps it at a minute and ignores what is not a number", () => {
    expect(crawlDelayOf("User-agent: a\nUser-agent: pagegrade\nCrawl-delay: 2\n", "pagegrade")).toBe(2);
    expect(crawlDelayOf("User-agent: *\nCrawl-delay: 3600\n", "pagegrade")).toBe(60);
    expect(crawlDelayOf("User-agent: *\nCrawl-delay: soon\n", "pagegrade")).toBe(0);
    expect(crawlDelayOf("User-agent: *\nCrawl-delay: -1\n", "pagegrade")).toBe(0);
    expect(crawlDelayOf("", "pagegrade")).toBe(0);
  });
});

describe("a crawl and Crawl-delay", () => {
  let server: LocalServer;
  const pageRequests: number[] = [];
  const delayMs = 400;

  beforeAll(async () => {
    const page =
      (title: string, links: string): Handler =>
      (request, response) => {
        pageRequests.push(performance.now());
        html(
          `<!doctype html><html lang="en"><head><title>${title}</title></head><body>${links}</body></html>`,
        )(request, response);
      };
    server = await startServer({
      "/robots.txt": (_request, response) => {
        response.writeHead(200, { "content-type": "text/plain" });
        response.end(`User-agent: *\nCrawl-delay: ${delayMs / 1000}\n`);
      },
      "/": page("Home", '<a href="/a">A</a> <a href="/b">B</a> <a href="/c">C</a>'),
      "/a": page("A", '<a href="/">Home</a>'),
      "/b": page("B", '<a href="/">Home</a>'),
      "/c": page("C", '<a href="/">Home</a>'),
    });
  });
  afterAll(() => server.close());

  it("starts its page requests no closer together than the delay, with two pages at once allowed", async () => {
    await run(process.execPath, [bin, "crawl", `${server.url}/`, "--concurrency", "2"], {
      env: {
        ...process.env,
        NO_COLOR: "1",
        PAGEGRADE_ALLOW_PRIVATE_NETWORKS: "1",
        PAGEGRADE_CRAWL_DELAY_MS: "0",
      },
    });
    expect(pageRequests).toHaveLength(4);
    const gaps = pageRequests.slice(1).map((at, index) => at - (pageRequests[index] as number));
    // Starts are spaced by the delay; what reaches the site may be a little closer, as one request can spend
    // longer on its way (a new connection) than the next. Without the delay the gaps are a few milliseconds.
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(delayMs - 50);
  });
});
