/**
 * `pagegrade crawl` names why a crawl found nothing: a start page that robots.txt refuses, or that redirects off
 * the project, exits 2 with the reason (before: "its start page could not be analysed", naming neither).
 */
import { execFile } from "node:child_process";
import type { IncomingMessage, ServerResponse } from "node:http";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testPage as page } from "../helpers/crawl-api.js";
import { html, type LocalServer, startServer } from "../helpers/local-server.js";

const run = promisify(execFile);
const bin = new URL("../../bin/pagegrade.js", import.meta.url).pathname;

async function pagegrade(args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, ...args], {
      env: {
        ...process.env,
        NO_COLOR: "1",
        PAGEGRADE_ALLOW_PRIVATE_NETWORKS: "1",
        PAGEGRADE_CRAWL_DELAY_MS: "0",
      },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe("pagegrade crawl, a start page that cannot be analysed", () => {
  let refusing: LocalServer;
  let leaving: LocalServer;

  beforeAll(async () => {
    refusing = await startServer({
      "/robots.txt": (_request: IncomingMessage, response: ServerResponse) => {
        response.writeHead(200, { "content-type": "text/plain" });
        response.end("User-agent: *\nDisallow: /\n");
      },
      "/": html(page("Home", "<p>Hello.</p>")),
    });
    leaving = await startServer({
      "/": (_request, response) => {
        response.writeHead(302, { location: "https://elsewhere.example/" });
        response.end();
      },
    });
  });
  afterAll(async () => {
    await refusing.close();
    await leaving.close();
  });

  it("names robots.txt, and the redirect off the project", async () => {
    const robots = await pagegrade(["crawl", `${refusing.url}/`, "--no-sitemaps"]);
    expect(robots.code).toBe(2);
    expect(robots.stdout).toContain("(robots)");
    expect(robots.stderr.trim().split("\n").pop()).toBe(
      `pagegrade: the crawl could not run: The start page ${refusing.url}/ is disallowed for pagegrade by the site's robots.txt: there is nothing to crawl.`,
    );
    const offSite = await pagegrade(["crawl", `${leaving.url}/`, "--no-sitemaps"]);
    expect(offSite.code).toBe(2);
    expect(offSite.stdout).toContain("(off-site)");
    expect(offSite.stderr).toContain("redirects to https://elsewhere.example/, off the project");
  }, 60_000);
});
