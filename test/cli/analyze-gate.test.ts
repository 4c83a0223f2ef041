/**
 * The regression gate of `pagegrade analyze` against a page on 127.0.0.1 that changes between runs: --baseline
 * (what changed since a saved report; a regressed check exits 1), --budget (a line per breach; a bad budget file
 * exits 2 naming the field, before anything is fetched) and --junit (well-formed XML, page text escaped). The
 * command runs in-process (test/helpers/cli-in-process.ts); the regressed run and a refused option run the real
 * bin/pagegrade.js too, for the exit codes a shell sees.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pagegradeInProcess as pagegrade } from "../helpers/cli-in-process.js";
import { pagegradeProcess } from "../helpers/cli-process.js";
import { html, type LocalServer, startServer } from "../helpers/local-server.js";
import { allElements, parseXml, type XmlElement } from "../helpers/xml.js";

const head = '<!doctype html><html lang="en"><title>Bicycle repair at home</title><h1>Bicycle repair</h1>';
const described = `${head}<img src="/a.png" alt="A wheel"></html>`;
const undescribed = `${head}<img src="/a.png" alt="A wheel"><img src="/b.png" data-note="]]></failure><x y=&quot;&amp;"></html>`;

describe("pagegrade analyze: the regression gate", { timeout: 60_000 }, () => {
  let server: LocalServer;
  let page = described;
  let dir: string;
  const file = (name: string, content?: string) => {
    const path = join(dir, name);
    if (content !== undefined) writeFileSync(path, content);
    return path;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "pagegrade-gate-"));
    server = await startServer({ "/": (request, response) => html(page)(request, response) });
  });
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("prints what changed against a saved report and exits 1 when a check regressed", async () => {
    page = described;
    const saved = await pagegrade(["analyze", `${server.url}/`, "--json"]);
    expect(saved.code).toBe(0);
    const baseline = file("baseline.json", saved.stdout);

    const same = await pagegrade(["analyze", `${server.url}/`, "--baseline", baseline]);
    expect(same.code).toBe(0);
    expect(same.stdout).toContain("Changes since the baseline of ");
    expect(same.stdout).toContain("No check regressed.");
    expect(same.stdout).not.toContain("regressed image-alt");

    page = undescribed;
    // The real command, for the exit code a shell sees; the rest of the gate runs in-process.
    const worse = await pagegradeProcess(["analyze", `${server.url}/`, "--baseline", baseline]);
    expect(worse.code, worse.stderr).toBe(1);
    expect(worse.stdout).toContain("✗ regressed image-alt [high]  pass → fail");
    expect(worse.stdout).toContain(`+ src: ${server.url}/b.png`);
    expect(worse.stdout).toMatch(/^Score \d+ → \d+ \(▼ \d+\)$/m);
    expect(worse.stdout).toMatch(/^\d+ checks? regressed\.$/m);
    const regressed = worse.stdout.indexOf("regressed image-alt");
    const changed = worse.stdout.indexOf("changed   image-dimensions");
    expect(changed).toBeGreaterThan(regressed);

    // The worse report, saved as the next baseline, makes the fix visible.
    const worseSaved = file("worse.json", (await pagegrade(["analyze", `${server.url}/`, "--json"])).stdout);
    page = described;
    const fixed = await pagegrade(["analyze", `${server.url}/`, "--baseline", worseSaved]);
    expect(fixed.code).toBe(0);
    expect(fixed.stdout).toContain("✓ fixed     image-alt [high]  fail → pass");
    expect(fixed.stdout).toContain(`− src: ${server.url}/b.png`);
    expect(fixed.stdout).toContain("No check regressed.");
  });

  it("keeps --json output the report object, with the verdict on stderr", async () => {
    page = described;
    const baseline = file(
      "json-baseline.json",
      (await pagegrade(["analyze", `${server.url}/`, "--json"])).stdout,
    );
    page = undescribed;
    const result = await pagegrade(["analyze", `${server.url}/`, "--json", "--baseline", baseline]);
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout);
    expect(report.results["image-alt"].status).toBe("fail");
    expect(result.stderr).toContain("✗ regressed image-alt [high]  pass → fail");
  });

  it("refuses a baseline that is not a pagegrade report before fetching anything", async () => {
    const before = server.requests.length;
    const notJson = await pagegrade(["analyze", `${server.url}/`, "--baseline", file("x.json", "<html>")]);
    expect(notJson.code).toBe(2);
    expect(notJson.stderr).toContain(`the baseline file "${join(dir, "x.json")}" is not JSON`);
    const other = await pagegrade([
      "analyze",
      `${server.url}/`,
      "--baseline",
      file("o.json", '{"name":"x"}'),
    ]);
    expect(other.code).toBe(2);
    expect(other.stderr).toContain('is not a pagegrade report ("url" is missing or not a string)');
    const missing = await pagegrade(["analyze", `${server.url}/`, "--baseline", join(dir, "none.json")]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("cannot read the baseline file");
    expect(server.requests.length).toBe(before);
  });

  it("checks a budget with a line per breach", async () => {
    page = undescribed;
    const report = JSON.parse((await pagegrade(["analyze", `${server.url}/`, "--json"])).stdout);
    const within = file(
      "within.json",
      JSON.stringify({
        score: report.score,
        categories: { seo: report.categories.seo },
        checks: ["title", "h1"],
      }),
    );
    const ok = await pagegrade(["analyze", `${server.url}/`, "--budget", within]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain("Within the budget.");

    const strict = file(
      "strict.json",
      JSON.stringify({
        score: report.score + 1,
        categories: { seo: 100 },
        checks: ["image-alt", "hreflang", "title"],
      }),
    );
    const breached = await pagegrade(["analyze", `${server.url}/`, "--budget", strict]);
    expect(breached.code).toBe(1);
    const lines = breached.stdout.slice(breached.stdout.indexOf("Budget breached:")).trim().split("\n");
    expect(lines).toEqual([
      "Budget breached:",
      `  ✗ score ${report.score} is below the minimum ${report.score + 1}`,
      `  ✗ category seo score ${report.categories.seo} is below the minimum 100`,
      "  ✗ check image-alt is fail; it must pass",
      "  ✗ check hreflang is na; it must pass",
    ]);
  });

  it.each<[string, string]>([
    ["{", "is not valid JSON"],
    ["[]", "must be a JSON object"],
    ['{"minimum": 3}', 'unknown field "minimum"'],
    ['{"score": 101}', '"score" must be a whole number from 0 to 100, got 101'],
    ['{"score": "80"}', '"score" must be a whole number from 0 to 100, got "80"'],
    ['{"categories": {"speed": 50}}', '"categories.speed": unknown category'],
    ['{"categories": {"seo": 50.5}}', '"categories.seo" must be a whole number from 0 to 100'],
    ['{"checks": "title"}', '"checks" must be a list of check ids'],
    ['{"checks": ["title", "image-alts"]}', '"checks[1]": unknown check "image-alts"'],
    ['{"checks": ["title", "title"]}', '"checks[1]": "title" is listed twice'],
  ])("refuses the budget file %s with exit 2 and a message naming the field", async (content, message) => {
    const before = server.requests.length;
    const path = file("bad-budget.json", content);
    const result = await pagegrade(["analyze", `${server.url}/`, "--budget", path]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`pagegrade: the budget file "${path}`);
    expect(result.stderr).toContain(message);
    expect(server.requests.length).toBe(before);
  });

  it("writes well-formed JUnit XML with a test case per check, page text escaped", async () => {
    page = described;
    const baseline = file(
      "junit-baseline.json",
      (await pagegrade(["analyze", `${server.url}/`, "--json"])).stdout,
    );
    page = undescribed;
    const out = join(dir, "out.xml");
    const budget = file("junit-budget.json", '{"checks": ["image-alt"]}');
    const result = await pagegrade([
      "analyze",
      `${server.url}/`,
      "--json",
      "--baseline",
      baseline,
      "--budget",
      budget,
      "--junit",
      out,
    ]);
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout);
    const root = parseXml(readFileSync(out, "utf8"));
    expect(root.name).toBe("testsuites");
    const cases = allElements(root).filter((element) => element.name === "testcase");
    const statuses = Object.values(report.results).map((r) => (r as { status: string }).status);
    const count = (wanted: string[]) => statuses.filter((status) => wanted.includes(status)).length;
    expect(cases).toHaveLength(statuses.length + 2);
    expect(root.attributes).toMatchObject({
      tests: String(statuses.length + 2),
      failures: String(count(["fail"]) + 2),
      skipped: String(count(["na", "info", "error"])),
    });
    const failures = cases.filter((c) => child(c, "failure"));
    expect(failures).toHaveLength(count(["fail"]) + 2);
    expect(cases.filter((c) => child(c, "skipped"))).toHaveLength(count(["na", "info", "error"]));
    const suites = root.children.map((suite) => suite.attributes.name);
    expect(suites).toEqual(
      expect.arrayContaining([
        "pagegrade.seo",
        "pagegrade.security",
        "pagegrade.performance",
        "pagegrade.gate",
      ]),
    );
    for (const suite of root.children) {
      expect(suite.attributes.tests).toBe(String(suite.children.length));
    }

    const imageAlt = cases.find(
      (c) => c.attributes.name === "image-alt: Image alternative text",
    ) as XmlElement;
    const failure = child(imageAlt, "failure") as XmlElement;
    expect(failure.attributes.message).toBe("1 of 2 images has no alt attribute.");
    expect(failure.text).toContain(`- src: ${server.url}/b.png`);
    expect(failure.text).toContain('data-note="]]></failure><x y=&quot;&amp;">');
    const gate = cases.filter((c) => c.attributes.classname === "pagegrade.gate");
    expect(gate.map((c) => [c.attributes.name, child(c, "failure")?.text])).toEqual([
      [
        "no check regressed against the baseline",
        expect.stringContaining("image-alt regressed: pass → fail"),
      ],
      ["the report keeps within the budget", "check image-alt is fail; it must pass"],
    ]);
    const warned = cases.find((c) => c.attributes.name?.startsWith("canonical:")) as XmlElement;
    expect(child(warned, "failure")).toBeUndefined();
    expect(child(warned, "system-out")?.text).toContain("warn [medium]: The page declares no canonical URL.");
  });

  it("refuses the gate options with --file", async () => {
    const list = file("urls.txt", `${server.url}/\n`);
    for (const option of ["--baseline", "--budget", "--junit"]) {
      const result = await pagegrade(["analyze", "--file", list, option, join(dir, "x")]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`pagegrade: ${option} gates one URL; it cannot be used with --file`);
    }
    // The real command: a usage error exits 2 with the usage text, and fetches nothing.
    const before = server.requests.length;
    const refused = await pagegradeProcess(["analyze", "--file", list, "--junit", join(dir, "x")]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("pagegrade: --junit gates one URL; it cannot be used with --file");
    expect(refused.stderr).toContain("Usage:");
    expect(server.requests.length).toBe(before);
  });
});

function child(element: XmlElement, name: string): XmlElement | undefined {
  return element.children.find((c) => c.name === name);
}
