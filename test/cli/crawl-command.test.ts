/**
 * `pagegrade crawl` against a crafted site on 127.0.0.1: the site issues printed at the end,
 * every page as JSON Lines and CSV, include patterns, and the exit codes (0 crawled, 2 when the crawl could not
 * run or on bad usage). The command runs in-process (test/helpers/cli-in-process.ts); the whole-site crawl runs
 * the real bin/pagegrade.js too.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pagegradeInProcess } from "../helpers/cli-in-process.js";
import { pagegradeProcess } from "../helpers/cli-process.js";
import { html, type LocalServer, startServer } from "../helpers/local-server.js";

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><title>${title}</title></head><body><h1>${title}</h1>${body}</body></html>`;
const crawlEnv = { PAGEGRADE_CRAWL_DELAY_MS: "0" };
const pagegrade = (args: string[]) => pagegradeInProcess(args, crawlEnv);

describe("pagegrade crawl", () => {
  let server: LocalServer;

  beforeAll(async () => {
    server = await startServer({
      "/": html(page("Home", '<a href="/a">A</a> <a href="/b">B</a> <a href="/gone">Gone</a>')),
      "/a": html(page("Same title", '<a href="/">Home</a> <p>First page about wheels.</p>')),
      "/b": html(page("Same title", '<a href="/">Home</a> <p>Second page, about brakes and chains.</p>')),
      "/down/": (_request, response) => response.writeHead(500).end("down"),
    });
  });
  afterAll(() => server.close());

  it("crawls only the URLs of --file, with the values of --extract in JSON Lines and CSV", async () => {
    const directory = mkdtempSync(join(tmpdir(), "pagegrade-crawl-test-"));
    const list = join(directory, "urls.txt");
    writeFileSync(list, `# pages after the migration\n${server.url}/a\n\n${server.url}/b\n`);
    const extract = JSON.stringify([
      { name: "heading", selector: "h1" },
      { name: "about", regex: "about ([a-z]+)" },
    ]);
    const { code, stdout } = await pagegrade([
      "crawl",
      "--file",
      list,
      "--extract",
      extract,
      "--json-lines",
      join(directory, "pages.jsonl"),
      "--csv",
      directory,
    ]);
    expect(code, stdout).toBe(0);
    expect(stdout).toContain("2 pages analysed, 0 failed, 0 not fetched, 2 found");
    const lines = readFileSync(join(directory, "pages.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines.map((line) => [new URL(line.url).pathname, line.extracted])).toEqual([
      ["/a", { heading: ["Same title"], about: ["wheels"] }],
      ["/b", { heading: ["Same title"], about: ["brakes"] }],
    ]);
    const pagesCsv = readFileSync(join(directory, "pages.csv"), "utf8").split("\r\n");
    expect(pagesCsv[0]?.endsWith(",excluded,error,heading,about")).toBe(true);
    expect(pagesCsv[1]?.endsWith(",Same title,wheels")).toBe(true);
  });

  it("refuses --file with a URL, a list across projects and a runaway regex, with exit code 2", async () => {
    const directory = mkdtempSync(join(tmpdir(), "pagegrade-crawl-test-"));
    const list = join(directory, "urls.txt");
    writeFileSync(list, `${server.url}/a\nhttps://elsewhere.example/\n`);
    const both = await pagegrade(["crawl", `${server.url}/`, "--file", list]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("a URL or --file, not both");
    const mixed = await pagegrade(["crawl", "--file", list]);
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toContain("must be in one project");
    const missing = await pagegrade(["crawl", "--file", join(directory, "none.txt")]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("cannot read --file");
    const runaway = await pagegrade([
      "crawl",
      `${server.url}/`,
      "--extract",
      '[{"name":"x","regex":"(a+)+$"}]',
    ]);
    expect(runaway.code).toBe(2);
    expect(runaway.stderr).toContain("could backtrack without bound");
  });

  it("crawls the site, prints its issues, and writes every page as JSON Lines and CSV", async () => {
    const directory = mkdtempSync(join(tmpdir(), "pagegrade-crawl-test-"));
    // The real command, as a user runs it.
    const { code, stdout, stderr } = await pagegradeProcess(
      ["crawl", `${server.url}/`, "--json-lines", join(directory, "pages.jsonl"), "--csv", directory],
      crawlEnv,
    );
    expect(code, stderr).toBe(0);
    expect(stdout).toContain(`${server.url}/  (complete)`);
    expect(stdout).toContain("3 pages analysed, 1 failed, 0 not fetched, 4 found");
    expect(stdout).toMatch(/✗ Broken links \(high, 1\)/);
    expect(stdout).toContain(`- ${server.url}/gone  status 404  links 1  from ${server.url}/`);
    expect(stdout).toMatch(/! Duplicate titles \(medium, 1\)/);

    const lines = readFileSync(join(directory, "pages.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines.map((line) => new URL(line.url).pathname).sort()).toEqual(["/", "/a", "/b", "/gone"]);
    expect(lines.find((line) => line.url.endsWith("/gone"))).toMatchObject({ status_code: 404, score: null });
    const pagesCsv = readFileSync(join(directory, "pages.csv"), "utf8").split("\r\n");
    expect(pagesCsv[0]).toBe(
      "url,status_code,content_type,depth,inlinks,outlinks,in_sitemap,indexable,canonical,title,redirect_to,score,result,excluded,error",
    );
    expect(pagesCsv.filter(Boolean)).toHaveLength(5);
    const issuesCsv = readFileSync(join(directory, "issues.csv"), "utf8");
    // The API's issues export: a row per finding, every page linking to a broken link's URL among its sources.
    const issueRows = issuesCsv.split("\r\n");
    expect(issueRows[0]).toBe("check,importance,title,fingerprint,url,detail,sources");
    expect(issueRows.find((row) => row.startsWith("broken-links,high,"))).toContain(`${server.url}/gone`);
  });

  it("fetches only what --include allows, and exits 2 when the start page cannot be analysed", async () => {
    const limited = await pagegrade(["crawl", `${server.url}/`, "--include", "/a$", "--json-lines", "-"]);
    expect(limited.code).toBe(0);
    const fetched = limited.stdout
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line))
      .filter((line) => line.status_code !== null)
      .map((line) => new URL(line.url).pathname);
    expect(fetched.sort()).toEqual(["/", "/a"]);

    const down = await pagegrade(["crawl", `${server.url}/down/`]);
    expect(down.code).toBe(2);
    expect(down.stdout).toContain("0 pages analysed, 1 failed");
    expect(down.stderr.trim().split("\n").pop()).toBe(
      `pagegrade: the crawl could not run: The start page ${server.url}/down/ failed: The server returned HTTP 500.`,
    );
    // It failed, and says why first.
    expect(down.stdout).toContain(`${server.url}/down/  (failed)`);
    expect(down.stdout).toContain(
      `The start page ${server.url}/down/ failed: The server returned HTTP 500. (http-status)`,
    );
  });

  it("refuses bad options with exit code 2 and a message naming them", async () => {
    for (const [args, message] of [
      [["--max-pages", "0"], "--max-pages must be a whole number from 1 to"],
      [["--max-depth", "x"], "--max-depth must be a whole number from 0 to 50"],
      [["--concurrency", "99"], "--concurrency must be a whole number from 1 to 16"],
      [
        ["--include", "no-slash"],
        'Each include pattern must start with / or * (a URL path pattern), got "no-slash"',
      ],
      [["--colour"], "Unknown option '--colour'"],
    ] as const) {
      const result = await pagegrade(["crawl", `${server.url}/`, ...args]);
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stderr).toContain(message);
    }
    const noUrl = await pagegrade(["crawl"]);
    expect(noUrl.code).toBe(2);
    expect(noUrl.stderr).toContain("crawl takes exactly one URL");
    const badUrl = await pagegrade(["crawl", "ftp://example.com/"]);
    expect(badUrl.code).toBe(2);
    expect(badUrl.stderr).toMatch(/url/i);
  }, 120_000); // seven processes, each starting through tsx
});
