/**
 * The site gate of `pagegrade crawl` against a site on 127.0.0.1 that changes in known ways
 * between two crawls: `--json` saves the first crawl as the baseline; the second fails against it on exactly
 * the new high-importance findings (a new broken link, a page whose image lost its alt text), and passes at the
 * same importance when the baseline is itself; `--budget` fails beyond the findings allowed; `--junit` writes one
 * suite per check and one case per finding, failed when new; bad gate options exit 2 naming them. Every exit
 * ends with one line saying why. The command runs in-process (test/helpers/cli-in-process.ts); the failing
 * second crawl runs the real bin/pagegrade.js, for the exit code a shell sees.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ChangingSite, startChangingSite } from "../helpers/changing-site.js";
import { pagegradeInProcess } from "../helpers/cli-in-process.js";
import { pagegradeProcess } from "../helpers/cli-process.js";

const crawlEnv = { PAGEGRADE_CRAWL_DELAY_MS: "0" };
const pagegrade = (args: string[]) => pagegradeInProcess(args, crawlEnv);

describe("pagegrade crawl, the site gate", () => {
  let site: ChangingSite;
  const directory = mkdtempSync(join(tmpdir(), "pagegrade-crawl-gate-"));
  const file = (name: string) => join(directory, name);

  beforeAll(async () => {
    site = await startChangingSite();
  });
  afterAll(() => site.close());

  it("saves a crawl, then fails the next one on exactly its new findings, and passes it against itself", async () => {
    site.version = 1;
    const first = await pagegrade(["crawl", site.url("/"), "--no-sitemaps", "--json", file("first.json")]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.last).toBe("pagegrade: passed: the crawl completed, 6 pages analysed");
    const saved = JSON.parse(readFileSync(file("first.json"), "utf8"));
    expect(saved.object).toBe("site_snapshot");
    expect(saved.crawl).toMatchObject({ url: site.url("/"), status: "complete" });
    const broken = saved.issues.find((issue: { check: string }) => issue.check === "broken-links");
    expect(broken.items).toEqual([
      expect.objectContaining({
        url: site.url("/gone"),
        fingerprint: expect.stringMatching(/^[0-9a-f]{32}$/),
      }),
    ]);
    expect(
      saved.pages.find((page: { url: string }) => page.url === site.url("/fixme")).checks["image-alt"],
    ).toBe("fail");
    expect(saved.checks.find((check: { check: string }) => check.check === "image-alt")).toMatchObject({
      fail: 1,
      pages: 1,
    });

    site.version = 2;
    writeFileSync(
      file("budget.json"),
      JSON.stringify({
        score: 0,
        max_findings: { checks: { "broken-links": 0 }, importance: { low: 1000 } },
      }),
    );
    // The real command, for the exit code a shell sees.
    const second = await pagegradeProcess(
      [
        "crawl",
        site.url("/"),
        "--no-sitemaps",
        "--baseline",
        file("first.json"),
        "--budget",
        file("budget.json"),
        "--junit",
        file("second.xml"),
        "--json",
        file("second.json"),
      ],
      crawlEnv,
    );
    expect(second.code, second.stderr).toBe(1);
    expect(second.stdout).toContain("New against the baseline (at or above high):");
    const listed = second.stdout.split("\n").filter((line) => line.startsWith("  ✗ "));
    expect(listed).toEqual([
      `  ✗ new broken-links finding (high): ${site.url("/gone2")}`,
      `  ✗ image-alt (high) got worse on ${site.url("/a")}: pass → fail`,
      "  ✗ check broken-links has 1 findings; at most 0 allowed",
    ]);
    expect(second.last).toBe(
      `pagegrade: failed: 2 new findings at or above high against the baseline (first: new broken-links finding (high): ${site.url("/gone2")}), over budget: check broken-links has 1 findings; at most 0 allowed`,
    );
    const junit = readFileSync(file("second.xml"), "utf8");
    const suite = (name: string) => {
      const start = junit.indexOf(`<testsuite name="${name}"`);
      expect(start, name).toBeGreaterThan(-1);
      return junit.slice(start, junit.indexOf("</testsuite>", start));
    };
    expect(suite("pagegrade.broken-links")).toContain('tests="1" failures="1"');
    expect(suite("pagegrade.broken-links")).toContain(`name="${site.url("/gone2")}"`);
    // /a got worse; /c fails where image-alt did not apply before (a change, not a new problem): it passes.
    expect(suite("pagegrade.image-alt")).toContain('tests="2" failures="1"');
    expect(suite("pagegrade.image-alt")).toContain(
      `<testcase classname="pagegrade.image-alt" name="${site.url("/a")}">`,
    );
    const changed = suite("pagegrade.image-alt").split(`name="${site.url("/c")}">`)[1] ?? "";
    expect(changed).toContain("<system-out>image-alt fail (high)");
    expect(changed.slice(0, changed.indexOf("</testcase>"))).not.toContain("<failure");
    expect(suite("pagegrade.gate")).toContain('tests="2" failures="2"');

    // Against itself nothing is new; below high, medium findings count too (none are new here either).
    const again = await pagegrade([
      "crawl",
      site.url("/"),
      "--no-sitemaps",
      "--baseline",
      file("second.json"),
      "--fail-on",
      "low",
    ]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.last).toBe("pagegrade: passed: no new finding at or above low against the baseline");
  }, 180_000);

  it("refuses bad gate options and files with exit 2, naming what is wrong", async () => {
    writeFileSync(file("typo.json"), JSON.stringify({ max_findings: { check: { "broken-links": 0 } } }));
    writeFileSync(
      file("unknown-check.json"),
      JSON.stringify({ max_findings: { checks: { "broken-link": 0 } } }),
    );
    writeFileSync(file("not-a-crawl.json"), JSON.stringify({ url: "https://example.com/", score: 90 }));
    for (const [args, message] of [
      [["--fail-on", "critical"], '--fail-on must be high, medium or low, got "critical"'],
      [["--budget", file("typo.json")], 'unknown key "max_findings.check"'],
      [["--budget", file("unknown-check.json")], '"max_findings.checks.broken-link": unknown check'],
      [["--baseline", file("not-a-crawl.json")], "is not a pagegrade crawl"],
      [["--baseline", file("missing.json")], "cannot read the baseline file"],
    ] as const) {
      const result = await pagegrade(["crawl", site.url("/"), ...args]);
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stderr).toContain(message);
    }
  }, 120_000);
});
