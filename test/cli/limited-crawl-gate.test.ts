/**
 * The site gate of `pagegrade crawl` follows the comparison's rule (crawls/finding-coverage.ts): a site of a few
 * hundred URLs crawled twice below its size (`--max-pages`), with one section removed and one title removed in
 * between, fails against the first crawl on exactly those changes (the new broken link to the removed section,
 * the title lost on its page), and counts the broken links only the second crawl reached as coverage, not new.
 * (Before: each broken member link the first crawl left out at its limit was a new finding.)
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LimitedSite, limitedMaxPages, startLimitedSite } from "../helpers/limited-site.js";

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

describe("pagegrade crawl --baseline, two crawls cut by --max-pages", () => {
  let site: LimitedSite;
  const directory = mkdtempSync(join(tmpdir(), "pagegrade-limited-gate-"));
  const file = (name: string) => join(directory, name);

  beforeAll(async () => {
    site = await startLimitedSite();
  });
  afterAll(() => site.close());

  it("fails on exactly the removed page's broken inlinks and the title regression, the rest as coverage", async () => {
    const crawl = (extra: string[]) =>
      pagegrade(["crawl", site.url("/"), "--no-sitemaps", "--max-pages", String(limitedMaxPages), ...extra]);
    site.version = 1;
    const first = await crawl(["--json", file("first.json")]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(
      /Limited: stopped at its limits \(--max-pages 80, --max-depth \d+\); \d+ URLs found were not reached/,
    );
    const saved = JSON.parse(readFileSync(file("first.json"), "utf8"));
    expect(saved.crawl).toMatchObject({ limited: true, not_reached: saved.left_out.length });
    expect(saved.reached).toContain(site.url("/m/3"));
    expect(saved.left_out.length).toBeGreaterThan(0);

    site.version = 2;
    const second = await crawl(["--baseline", file("first.json")]);
    expect(second.code, second.stderr).toBe(1);
    const listed = second.stdout.split("\n").filter((line) => line.startsWith("  ✗ "));
    expect(listed.filter((line) => !line.includes(site.url("/s/3")))).toEqual([
      `  ✗ new broken-links finding (high): ${site.url("/s/7")}`,
    ]);
    expect(listed).toContain(`  ✗ title (high) got worse on ${site.url("/s/3")}: pass → fail`);
    expect(second.stdout).toMatch(
      /Coverage: [1-9]\d* findings are about URLs the baseline's crawl did not reach \(newly checked, not new\)\./,
    );
  }, 120_000);
});
