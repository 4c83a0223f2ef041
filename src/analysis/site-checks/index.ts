/**
 * The ordered registry of site checks (each defined as site-check.ts says, listed once here) and `judgeSite`:
 * every check runs in turn over the crawl's source (the database's, or facts in memory: site-source.ts); one that
 * throws is reported as an error for that check only, the others still run. A check that needs the links says
 * in its message when the crawl did not record all of them.
 */
import { brokenLinks } from "./broken-links.js";
import { canonicalTargets } from "./canonical-targets.js";
import { clickDepth } from "./click-depth.js";
import { duplicateContent } from "./duplicate-content.js";
import { duplicateMetaDescription } from "./duplicate-meta-description.js";
import { duplicateTitle } from "./duplicate-title.js";
import { hreflangReciprocity } from "./hreflang-reciprocity.js";
import { insecureLinks } from "./insecure-links.js";
import { nofollowInternalLinks } from "./nofollow-internal-links.js";
import { orphanPages } from "./orphan-pages.js";
import { redirectChains } from "./redirect-chains.js";
import { redirectedLinks } from "./redirected-links.js";
import type { SiteCheckDefinition } from "./site-check.js";
import type { SiteIssue } from "./site-facts.js";
import type { FindingSink } from "./site-issue.js";
import type { SiteSource } from "./site-source.js";
import { sitemapErrors } from "./sitemap-errors.js";

/** Every site check, in the order a judgement runs them and lists their issues. */
export const siteChecks: readonly SiteCheckDefinition[] = [
  brokenLinks,
  canonicalTargets,
  duplicateTitle,
  duplicateContent,
  redirectChains,
  orphanPages,
  sitemapErrors,
  insecureLinks,
  duplicateMetaDescription,
  redirectedLinks,
  hreflangReciprocity,
  clickDepth,
  nofollowInternalLinks,
];

/**
 * Runs every check over the source, in order; `timed` hears how long each took (for the benchmark). Given a sink,
 * every finding goes to it (as the check finds them, or once it is done) and the issues come back without their
 * `findings`, so a judgement holds at most one check's; a check that fails has what it stored there discarded.
 */
export async function judgeSite(
  site: SiteSource,
  timed?: (check: string, ms: number) => void,
  sink?: FindingSink,
): Promise<{
  issues: SiteIssue[];
  errors: Array<{ check: string; error: unknown }>;
}> {
  const issues: SiteIssue[] = [];
  const errors: Array<{ check: string; error: unknown }> = [];
  for (const check of siteChecks) {
    const { id } = check;
    const started = performance.now();
    try {
      let issue = await check.run(site, sink);
      if (issue && sink) {
        if (issue.findings.length > 0)
          await sink.write(issue.check, issue.count - issue.findings.length, issue.findings);
        issue = { ...issue, findings: [] };
      }
      if (issue)
        issues.push(check.needs?.includes("links") ? fromCappedLinks(issue, site.linksLeftOut) : issue);
    } catch (error) {
      errors.push({ check: id, error });
      await sink?.discard(id);
    }
    timed?.(id, performance.now() - started);
  }
  return { issues, errors };
}

/** The issue, its message saying how many links it could not judge from (none: unchanged). */
function fromCappedLinks(issue: SiteIssue, leftOut: number): SiteIssue {
  if (leftOut === 0) return issue;
  const links = leftOut === 1 ? "1 link" : `${leftOut} links`;
  return {
    ...issue,
    message: `${issue.message} Judged from a capped link set: ${links} found on the crawled pages ${leftOut === 1 ? "was" : "were"} not recorded (the crawl's link bounds).`,
  };
}
