/**
 * `pagegrade analyze` against pages on 127.0.0.1: the readable report, --json, a file of URLs into JSON Lines,
 * wrong arguments and settings (exit 2), and --mode rendered with and without a usable Chromium. The command runs
 * in-process (test/helpers/cli-in-process.ts); a readable report and a configuration error run the real
 * bin/pagegrade.js too.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pagegradeInProcess as pagegrade } from "../helpers/cli-in-process.js";
import { pagegradeProcess } from "../helpers/cli-process.js";
import { html, type LocalServer, startServer } from "../helpers/local-server.js";

const page =
  '<!doctype html><html lang="en"><title>Bicycle repair at home</title><h1>Bicycle repair</h1><img src="/a.png"></html>';

describe("pagegrade analyze", () => {
  let server: LocalServer;

  beforeAll(async () => {
    server = await startServer({
      "/": html(page),
      "/x.png": (_q, r) => r.writeHead(200, { "content-type": "image/png" }).end("png"),
    });
  });
  afterAll(() => server.close());

  it("prints a readable report with failed checks and their evidence", async () => {
    // The real command, as a user runs it.
    const { code, stdout, stderr } = await pagegradeProcess(["analyze", `${server.url}/`]);
    expect(code, stderr).toBe(0);
    expect(stdout).toMatch(
      /^http:\/\/127\.0\.0\.1:\d+\/\n(GOOD|DECENT|BAD) {2}\d+\/100 {3}project 127\.0\.0\.1/,
    );
    expect(stdout).toContain(
      "✗ Image alternative text (image-alt) [high]  1 of 1 image has no alt attribute.",
    );
    expect(stdout).toContain(`- src: ${server.url}/a.png  html: <img src="/a.png">`);
  });

  it("prints the report object with --json", async () => {
    const { code, stdout } = await pagegrade(["analyze", `${server.url}/`, "--json"]);
    expect(code).toBe(0);
    const report = JSON.parse(stdout);
    expect(Object.keys(report).sort()).toEqual(
      [
        "categories",
        "final_url",
        "generated_at",
        "project",
        "result",
        "results",
        "score",
        "summary",
        "url",
      ].sort(),
    );
    expect(report.results["image-alt"].details.items).toHaveLength(1);
  });

  it("exits non-zero with a one-line reason when the page cannot be analysed", async () => {
    const png = await pagegrade(["analyze", `${server.url}/x.png`]);
    expect(png.code).toBe(1);
    expect(png.stderr).toBe(
      `pagegrade: ${server.url}/x.png: The URL is not an HTML page (it is image/png).\n`,
    );
    const guarded = await pagegrade(["analyze", `${server.url}/`], { PAGEGRADE_ALLOW_PRIVATE_NETWORKS: "0" });
    expect(guarded.code).toBe(1);
    expect(guarded.stderr).toContain("private or reserved network address");
  });

  it("analyses a file of URLs into JSON Lines", async () => {
    const list = join(tmpdir(), `pagegrade-urls-${process.pid}.txt`);
    const out = join(tmpdir(), `pagegrade-out-${process.pid}.jsonl`);
    writeFileSync(list, `# pages\n${server.url}/\n\n${server.url}/x.png\nnot a url\n`);
    const { code, stderr } = await pagegrade([
      "analyze",
      "--file",
      list,
      "--concurrency",
      "2",
      "--json-lines",
      out,
    ]);
    expect(code).toBe(1);
    expect(stderr).toContain("1 analysed, 2 failed");
    const lines = readFileSync(out, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines).toHaveLength(3);
    expect(lines.find((line) => line.url === "not a url")?.error.reason).toBe("invalid-url");
    expect(lines.find((line) => line.final_url === `${server.url}/`)?.result).toMatch(/good|decent|bad/);
  });

  it("rejects wrong arguments with usage and exit code 2", async () => {
    expect((await pagegrade(["analyze"])).code).toBe(2);
    expect((await pagegrade(["analyze", "--file", "x", "--concurrency", "0"])).stderr).toContain(
      "--concurrency must be a whole number from 1 to 64",
    );
    expect((await pagegrade(["frobnicate"])).stderr).toContain('unknown command "frobnicate"');
    // The real command: a configuration error is one line on stderr and exit 2, no stack trace.
    const badConfig = await pagegradeProcess(["analyze", `${server.url}/`], {
      PAGEGRADE_FETCH_TIMEOUT_MS: "soon",
    });
    expect(badConfig.code).toBe(2);
    expect(badConfig.stderr).toBe(
      'pagegrade: configuration: PAGEGRADE_FETCH_TIMEOUT_MS must be a whole number of at least 1, got "soon"\n',
    );
  });
});

describe("pagegrade analyze --mode", () => {
  let server: LocalServer;
  beforeAll(async () => {
    server = await startServer({
      "/": html(
        '<!doctype html><html lang="en"><head><title>Served</title></head><body><h1>Repair</h1><script>document.title = "Rendered"</script></body></html>',
      ),
    });
  });
  afterAll(() => server.close());

  it("refuses an unknown mode, and rendered mode without Chromium, with exit 2 and a message naming the setting", async () => {
    const unknown = await pagegrade(["analyze", `${server.url}/`, "--mode", "browser"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('--mode must be raw or rendered, got "browser"');
    const missing = await pagegrade(["analyze", `${server.url}/`, "--mode", "rendered"], {
      PAGEGRADE_CHROMIUM_PATH: "/nonexistent/chromium",
    });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("PAGEGRADE_CHROMIUM_PATH");
  });

  // Chromium itself refuses to start as root with its sandbox on; the command names the setting instead of
  // failing every page.
  it.runIf(process.getuid?.() === 0 && existsSync("/usr/bin/chromium"))(
    "refuses rendered mode with exit 2 when Chromium will not start as root with its sandbox on",
    { timeout: 60_000 },
    async () => {
      const env = { PAGEGRADE_CHROMIUM_SANDBOX: "1" };
      const one = await pagegrade(["analyze", `${server.url}/`, "--mode", "rendered"], env);
      expect(one.code).toBe(2);
      expect(one.stdout).toBe("");
      expect(one.stderr).toBe(
        "pagegrade: configuration: --mode rendered is unavailable: Chromium does not run as root with its sandbox on (set PAGEGRADE_CHROMIUM_SANDBOX=0, or run the service as a user other than root)\n",
      );
      const file = join(tmpdir(), `urls-root-${process.pid}.txt`);
      writeFileSync(file, `${server.url}/\n${server.url}/x\n`);
      const many = await pagegrade(["analyze", "--file", file, "--mode", "rendered"], env);
      expect(many.code).toBe(2);
      expect(many.stderr).toContain("PAGEGRADE_CHROMIUM_SANDBOX=0");
      expect(many.stderr).not.toContain("could not be analysed");
    },
  );

  // Skipped only on a developer's machine without Chromium; CI installs it, so there it always runs.
  it.skipIf(!existsSync("/usr/bin/chromium") && process.env.CI !== "true")(
    "renders the page in Chromium with --mode rendered, one URL or a file of them",
    { timeout: 60_000 },
    async () => {
      const env = { PAGEGRADE_CHROMIUM_SANDBOX: "0" };
      const one = await pagegrade(["analyze", `${server.url}/`, "--mode", "rendered", "--json"], env);
      expect(one.code).toBe(0);
      const report = JSON.parse(one.stdout);
      expect(report.results["rendering-changes"]).toMatchObject({ status: "fail" });
      expect(report.results.title.message).toContain("Rendered");
      const file = join(tmpdir(), `urls-${process.pid}.txt`);
      writeFileSync(file, `${server.url}/\n`);
      const many = await pagegrade(
        ["analyze", "--file", file, "--mode", "rendered", "--json-lines", "-"],
        env,
      );
      expect(many.code).toBe(0);
      expect(JSON.parse(many.stdout.trim()).results["rendering-changes"].status).toBe("fail");
    },
  );
});
