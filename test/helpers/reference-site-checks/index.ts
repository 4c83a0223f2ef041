/**
 * The reference judgement (the site checks over a crawl's facts held whole in memory, as they were before the
 * checks read through a `SiteSource`), kept only so tests compare the streaming judgement with it.
 * The ordered registry of site checks and `judgeSite`: every check runs over the crawl's facts; one that throws
 * is reported as an error for that check only, the others still run. A check that reads the links says in its
 * message when the crawl did not record all of them.
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
import type { SiteCheck, SiteFacts, SiteIssue } from "./reference-facts.js";
import { sitemapErrors } from "./sitemap-errors.js";

export const siteChecks: ReadonlyArray<[id: string, check: SiteCheck]> = [
  ["broken-links", brokenLinks],
  ["canonical-targets", canonicalTargets],
  ["duplicate-title", duplicateTitle],
  ["duplicate-content", duplicateContent],
  ["redirect-chains", redirectChains],
  ["orphan-pages", orphanPages],
  ["sitemap-errors", sitemapErrors],
  ["insecure-links", insecureLinks],
  ["duplicate-meta-description", duplicateMetaDescription],
  ["redirected-links", redirectedLinks],
  ["hreflang-reciprocity", hreflangReciprocity],
  ["click-depth", clickDepth],
  ["nofollow-internal-links", nofollowInternalLinks],
];

/** The checks that judge from the links the crawl recorded. */
const linkChecks = new Set([
  "broken-links",
  "insecure-links",
  "nofollow-internal-links",
  "orphan-pages",
  "redirected-links",
]);

export function referenceJudgement(site: SiteFacts): {
  issues: SiteIssue[];
  errors: Array<{ check: string; error: unknown }>;
} {
  const issues: SiteIssue[] = [];
  const errors: Array<{ check: string; error: unknown }> = [];
  for (const [id, check] of siteChecks) {
    try {
      const issue = check(site);
      if (issue) issues.push(linkChecks.has(id) ? fromCappedLinks(issue, site.linksLeftOut ?? 0) : issue);
    } catch (error) {
      errors.push({ check: id, error });
    }
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
