/**
 * JUnit XML of a crawl for CI (`pagegrade crawl --junit FILE`): one test suite per check that found something,
 * one test case per finding (a site finding, or a page where a page check fails or warns), failed when it is new
 * against the baseline (at or above `--fail-on`) or its check is over its budget; passed otherwise, with what
 * it found in `system-out`. A `pagegrade.gate` suite holds the baseline and budget verdicts.
 */
import { type GateCase, gateCases, junitDocument, type TestCase } from "./junit.js";
import type { SiteBudget } from "./site-budget.js";
import type { NewFinding } from "./site-gate.js";
import type { SiteSnapshot } from "./site-snapshot.js";

export interface SiteJunitVerdicts {
  /** The new findings that fail the gate. */
  failing: NewFinding[];
  budget: SiteBudget | undefined;
  gate: GateCase[];
}

export function siteJunitXml(current: SiteSnapshot, verdicts: SiteJunitVerdicts): string {
  const failing = new Set(verdicts.failing.map((finding) => `${finding.check}\n${finding.key}`));
  const overBudget = (check: string, count: number) => {
    const most = verdicts.budget?.checks[check];
    return most !== undefined && count > most;
  };
  const suites = new Map<string, TestCase[]>();
  for (const issue of current.issues) {
    const suite = `pagegrade.${issue.check}`;
    const over = overBudget(issue.check, issue.items.length);
    suites.set(
      suite,
      issue.items.map((item) => {
        const subject =
          typeof item.url === "string"
            ? item.url
            : Array.isArray(item.pages)
              ? item.pages.join(" ")
              : item.fingerprint;
        const isNew = failing.has(`${issue.check}\n${item.fingerprint}`);
        return findingCase(
          suite,
          subject,
          `${issue.title} (${issue.importance})`,
          isNew,
          over,
          JSON.stringify(item),
        );
      }),
    );
  }
  for (const check of current.checks) {
    const suite = `pagegrade.${check.check}`;
    const over = overBudget(check.check, check.pages);
    suites.set(
      suite,
      current.pages
        .filter((page) => page.checks[check.check] === "fail" || page.checks[check.check] === "warn")
        .map((page) => {
          const isNew = failing.has(`${check.check}\n${page.url}`);
          const status = page.checks[check.check] as string;
          return findingCase(
            suite,
            page.url,
            `${check.check} ${status} (${check.importance})`,
            isNew,
            over,
            status,
          );
        }),
    );
  }
  if (verdicts.gate.length > 0) suites.set("pagegrade.gate", gateCases(verdicts.gate));
  const finished = typeof current.crawl.finished_at === "string" ? current.crawl.finished_at : "";
  return junitDocument(`pagegrade ${current.crawl.url}`, finished, suites);
}

function findingCase(
  suite: string,
  name: string,
  what: string,
  isNew: boolean,
  over: boolean,
  detail: string,
): TestCase {
  if (!isNew && !over) return { name, classname: suite, outcome: "passed", output: `${what}: ${detail}` };
  const why = [isNew ? "new against the baseline" : "", over ? "its check is over budget" : ""]
    .filter(Boolean)
    .join("; ");
  return { name, classname: suite, outcome: "failure", message: `${what}: ${why}`, body: detail };
}
