/**
 * The site gate of `pagegrade crawl`, from its flags to its verdict: the flags are read and their files
 * validated before the crawl starts (`readSiteGate`); once it has run, the crawl is saved in the baseline format
 * (`--json`), compared with the baseline and the budget, written as JUnit (`--junit`), and the verdict printed
 * with the one line that says why the command exits as it does.
 */
import { writeFileSync } from "node:fs";
import { CrawlFindings } from "../../crawls/crawl-findings.js";
import type { CrawlRow } from "../../crawls/crawl-store.js";
import type { CrawlStores } from "../../crawls/crawl-stores.js";
import { crawlObject, siteIssueObject } from "../../crawls/present.js";
import { UsageError } from "../../errors.js";
import type { Palette } from "../colour.js";
import { safe } from "../render-report.js";
import type { GateCase } from "./junit.js";
import { loadSiteBudget, type SiteBudget } from "./site-budget.js";
import {
  atOrAbove,
  type Importance,
  importances,
  newFindings,
  newlyChecked,
  siteBudgetBreaches,
} from "./site-gate.js";
import { siteJunitXml } from "./site-junit.js";
import { loadSiteBaseline, type SiteSnapshot, type SnapshotIssue } from "./site-snapshot.js";

export interface SiteGateSettings {
  json: string | undefined;
  baseline: SiteSnapshot | undefined;
  budget: SiteBudget | undefined;
  junit: string | undefined;
  failOn: Importance;
}

export interface SiteGateFlags {
  json?: string | undefined;
  baseline?: string | undefined;
  budget?: string | undefined;
  junit?: string | undefined;
  "fail-on"?: string | undefined;
}

/** The gate's flags, their files read and validated (a UsageError naming what is wrong). */
export function readSiteGate(flags: SiteGateFlags): SiteGateSettings {
  const failOn = flags["fail-on"] ?? "high";
  if (!(importances as readonly string[]).includes(failOn)) {
    throw new UsageError(`--fail-on must be high, medium or low, got "${failOn}"`);
  }
  return {
    json: flags.json,
    baseline: flags.baseline === undefined ? undefined : loadSiteBaseline(flags.baseline),
    budget: flags.budget === undefined ? undefined : loadSiteBudget(flags.budget),
    junit: flags.junit,
    failOn: failOn as Importance,
  };
}

/** The crawl in the baseline format, read from its store; its roll-up is the API's (`CrawlFindings.checks`). */
export async function siteSnapshot(stores: CrawlStores, crawl: CrawlRow): Promise<SiteSnapshot> {
  const rollup = new CrawlFindings(stores.rollups, stores.links, stores.listings);
  const [issueRows, findings, statuses, reached, checks] = await Promise.all([
    stores.listings.issues(crawl.id),
    stores.diffs.findings(crawl.id),
    stores.diffs.pageStatuses(crawl.id),
    stores.diffs.urlsSeen(crawl.id),
    rollup.checks(crawl.id, { limit: Number.MAX_SAFE_INTEGER, offset: 0 }),
  ]);
  const issues: SnapshotIssue[] = issueRows.map(siteIssueObject).map((issue) => ({
    check: issue.check,
    category: issue.category,
    importance: issue.importance,
    title: issue.title,
    count: issue.count,
    items: findings
      .filter((finding) => finding.check_id === issue.check)
      .map((finding) => JSON.parse(finding.item) as SnapshotIssue["items"][number]),
  }));
  const pages = statuses.map((page) => ({
    url: page.url,
    checks: JSON.parse(page.check_statuses) as Record<string, string>,
  }));
  const { id: _id, ...described } = crawlObject(crawl); // the temporary database's id means nothing afterwards
  return { object: "site_snapshot", crawl: described, issues, checks: checks.rows, pages, ...reached };
}

/** Writes the gate's files, prints its verdict, and returns the exit code (0 passed, 1 failed) and why. */
export function judgeSiteGate(
  settings: SiteGateSettings,
  current: SiteSnapshot,
  out: NodeJS.WritableStream,
  c: Palette,
): { code: 0 | 1; reason: string } {
  if (settings.json !== undefined) write(settings.json, `${JSON.stringify(current, null, 2)}\n`, "JSON");
  const gate: GateCase[] = [];
  const reasons: string[] = [];
  const failing = settings.baseline
    ? newFindings(settings.baseline, current).filter((finding) =>
        atOrAbove(finding.importance, settings.failOn),
      )
    : [];
  if (settings.baseline) {
    if (settings.baseline.crawl.url !== current.crawl.url) {
      out.write(c.dim(`\nNote: the baseline is a crawl of ${safe(settings.baseline.crawl.url)}\n`));
    }
    out.write(
      failing.length === 0
        ? `\n${c.green(`No new finding at or above ${settings.failOn} importance against the baseline.`)}\n`
        : `\n${c.bold(`New against the baseline (at or above ${settings.failOn}):`)}\n${failing.map((finding) => `  ${c.red("✗")} ${safe(finding.line)}\n`).join("")}`,
    );
    const coverage = newlyChecked(settings.baseline, current);
    if (coverage > 0) {
      out.write(
        c.dim(
          `Coverage: ${coverage} ${coverage === 1 ? "finding is" : "findings are"} about URLs the baseline's crawl did not reach (newly checked, not new).\n`,
        ),
      );
    }
    gate.push({
      name: `no new finding at or above ${settings.failOn} against the baseline`,
      problems: failing.map((finding) => finding.line),
    });
    reasons.push(
      failing.length === 0
        ? `no new finding at or above ${settings.failOn} against the baseline`
        : `${failing.length} new ${failing.length === 1 ? "finding" : "findings"} at or above ${settings.failOn} against the baseline (first: ${safe(failing[0]?.line ?? "")})`,
    );
  }
  if (settings.budget) {
    const breaches = siteBudgetBreaches(settings.budget, current);
    out.write(
      breaches.length === 0
        ? `\n${c.green("Within the budget.")}\n`
        : `\n${c.bold("Budget breached:")}\n${breaches.map((line) => `  ${c.red("✗")} ${line}\n`).join("")}`,
    );
    gate.push({ name: "the crawl keeps within the budget", problems: breaches });
    reasons.push(breaches.length === 0 ? "within the budget" : `over budget: ${breaches.join("; ")}`);
  }
  if (settings.junit !== undefined) {
    write(settings.junit, siteJunitXml(current, { failing, budget: settings.budget, gate }), "JUnit");
  }
  const failed = gate.some((verdict) => verdict.problems.length > 0);
  const pages = `${current.pages.length} ${current.pages.length === 1 ? "page" : "pages"} analysed`;
  return {
    code: failed ? 1 : 0,
    reason: `${failed ? "failed" : "passed"}: ${reasons.length > 0 ? reasons.join(", ") : `the crawl completed, ${pages}`}`,
  };
}

function write(path: string, text: string, what: string): void {
  try {
    writeFileSync(path, text);
  } catch (error) {
    throw new UsageError(`cannot write the ${what} file "${path}": ${(error as Error).message}`);
  }
}
