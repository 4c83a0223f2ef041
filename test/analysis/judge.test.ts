import { describe, expect, it } from "vitest";
import { accessibilityChecks } from "../../src/analysis/checks/accessibility/axe-checks.js";
import type { CheckDefinition } from "../../src/analysis/checks/check.js";
import { checks } from "../../src/analysis/checks/index.js";
import { judge } from "../../src/analysis/judge.js";
import { defaultScoring } from "../../src/analysis/scoring-config.js";
import type { PageSnapshot, RenderedFactsSnapshot } from "../../src/analysis/snapshot.js";
import { doc, pageFrom, probeFailed, probeOk, robotsProbe } from "../helpers/page.js";

const definition = (
  id: string,
  run: CheckDefinition["run"],
  needs?: CheckDefinition["needs"],
): CheckDefinition => ({
  id,
  category: "seo",
  importance: "high",
  title: id,
  description: "",
  howToFix: "",
  ...(needs ? { needs } : {}),
  run,
});

/** A check that says it ran, so a result shows whether the judge called it. */
const ran = (needs: CheckDefinition["needs"]) =>
  definition("needy", () => ({ status: "pass", value: 1, message: "Ran." }), needs);

const verdictOn = (page: PageSnapshot, needs: CheckDefinition["needs"]) => {
  const result = judge(page, [ran(needs)], defaultScoring.thresholds).needy;
  return result && { status: result.status, message: result.message, value: result.value };
};

const renderedFacts: RenderedFactsSnapshot = {
  metrics: null,
  failedRequests: [],
  failedRequestCount: 0,
  consoleProblems: [],
  consoleProblemCount: 0,
  accessibility: { problem: "not run" },
  rawDocument: pageFrom(doc("<p>x</p>")).document,
};

describe("judge", () => {
  const page = pageFrom(doc("<p>x</p>"));

  it("turns a check that throws into an error result for that check alone", () => {
    const results = judge(
      page,
      [
        definition("broken", () => {
          throw new Error("boom");
        }),
        definition("fine", () => ({ status: "pass", value: 1, message: "Fine." })),
      ],
      defaultScoring.thresholds,
    );
    expect(results.broken).toEqual({
      category: "seo",
      importance: "high",
      status: "error",
      passed: null,
      value: null,
      message: "This check could not be completed.",
    });
    expect(results.fine?.passed).toBe(true);
  });

  it("keeps 50 evidence items and counts the rest as truncated", () => {
    const items = Array.from({ length: 73 }, (_, index) => ({ index }));
    const results = judge(
      page,
      [definition("many", () => ({ status: "fail", value: 73, message: "Many.", items }))],
      defaultScoring.thresholds,
    );
    expect(results.many?.details?.items).toHaveLength(50);
    expect(results.many?.details?.truncated).toBe(23);
    expect(results.many?.passed).toBe(false);
  });
});

describe("judge, on what a check needs", () => {
  const raw = pageFrom(doc("<p>x</p>"));
  const rendered: PageSnapshot = { ...raw, rendered: renderedFacts };
  const withProbes = (probes: Parameters<typeof pageFrom>[1]) => pageFrom(doc("<p>x</p>"), probes);
  const checkRan = { status: "pass", message: "Ran.", value: 1 };

  it("gives na in raw mode to a check that needs the rendered page, without running it", () => {
    expect(verdictOn(raw, ["rendered"])).toEqual({
      status: "na",
      message: "Measured only in rendered mode (the page loaded in a browser).",
      value: null,
    });
    expect(verdictOn(rendered, ["rendered"])).toEqual(checkRan);
  });

  it("runs a check that declares no needs whatever the snapshot lacks", () => {
    expect(verdictOn(withProbes({ probes: { notFound: probeFailed() } }), undefined)).toEqual(checkRan);
    expect(verdictOn(raw, [])).toEqual(checkRan);
  });

  it("gives error, in each probe's words, when a probe the check needs failed or was refused", () => {
    const timeout = "The server did not respond in time.";
    const refused = "The server answered HTTP 403 to pagegrade (a firewall or rate limit).";
    const cases: Array<[NonNullable<CheckDefinition["needs"]>[number], string]> = [
      ["notFound", "Could not check"],
      ["httpVariant", "Could not check"],
      ["favicon", "Could not check /favicon.ico"],
      ["sitemap", "Could not check /sitemap.xml"],
      ["llmsTxt", "Could not check /llms.txt"],
    ];
    for (const [need, words] of cases) {
      expect(verdictOn(withProbes({ probes: { [need]: probeFailed() } }), [need])).toEqual({
        status: "error",
        message: `${words}: ${timeout}`,
        value: null,
      });
      expect(verdictOn(withProbes({ probes: { [need]: probeOk(403) } }), [need])?.message).toBe(
        `${words}: ${refused}`,
      );
      // Any other status says something about the site: the check judges it.
      expect(verdictOn(withProbes({ probes: { [need]: probeOk(500) } }), [need])).toEqual(checkRan);
    }
  });

  it("runs the check when the collector made no such probe (the check says why none was needed)", () => {
    for (const need of ["httpVariant", "favicon", "sitemap"] as const) {
      expect(verdictOn(withProbes({ probes: { [need]: null } }), [need])).toEqual(checkRan);
    }
  });

  it("gives error when robots.txt could not be read, and runs the check on any answer it can read", () => {
    expect(
      verdictOn(withProbes({ probes: { robotsTxt: probeFailed("Connection refused.") } }), ["robotsTxt"]),
    ).toEqual({ status: "error", message: "Could not check: Connection refused.", value: null });
    expect(verdictOn(withProbes({ probes: { robotsTxt: robotsProbe(429) } }), ["robotsTxt"])?.message).toBe(
      "Could not check: robots.txt answered HTTP 429.",
    );
    expect(verdictOn(withProbes({ probes: { robotsTxt: robotsProbe(302) } }), ["robotsTxt"])?.message).toBe(
      "Could not check: robots.txt answered HTTP 302.",
    );
    for (const status of [200, 404, 503]) {
      expect(verdictOn(withProbes({ probes: { robotsTxt: robotsProbe(status) } }), ["robotsTxt"])).toEqual(
        checkRan,
      );
    }
  });

  it("answers the first unmet need, in the order declared", () => {
    const page = withProbes({ probes: { llmsTxt: probeFailed() } });
    expect(verdictOn(page, ["rendered", "llmsTxt"])?.status).toBe("na");
    expect(verdictOn(page, ["llmsTxt", "rendered"])?.status).toBe("error");
  });

  it("has every rendered-only check of the registry declare it, so none is judged in raw mode", () => {
    const renderedOnly = checks.filter((check) => check.needs?.includes("rendered")).map((check) => check.id);
    expect(renderedOnly.sort()).toEqual(
      [
        "console-errors",
        "cumulative-layout-shift",
        "failed-requests",
        "first-contentful-paint",
        "largest-contentful-paint",
        "rendering-changes",
        "total-blocking-time",
        ...accessibilityChecks.map((check) => check.id),
      ].sort(),
    );
    const results = judge(raw, checks, defaultScoring.thresholds);
    for (const id of renderedOnly) expect(results[id]?.status).toBe("na");
  });
});
