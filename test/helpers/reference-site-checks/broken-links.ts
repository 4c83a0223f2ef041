/**
 * broken-links: internal links to URLs that answer 404, 410 or 5xx, or that could not be fetched at all. 401,
 * 403 and 429 are a firewall's or a login's answer, not a missing page: never reported.
 */
import type { SiteCheck, SitePage } from "./reference-facts.js";
import { byUrl, issueOf, listedSources, pagesByUrl, plural, sourcesByTarget } from "./site-issue.js";

export function isBroken(page: SitePage): boolean {
  if (page.excluded !== null) return false;
  if (page.statusCode === null) return page.error !== null;
  return page.statusCode === 404 || page.statusCode === 410 || page.statusCode >= 500;
}

export const brokenLinks: SiteCheck = (site) => {
  const pages = pagesByUrl(site);
  const findings = [...sourcesByTarget(site)]
    .filter(([target]) => {
      const page = pages.get(target);
      return page !== undefined && isBroken(page);
    })
    .map(([target, sources]) => {
      const page = pages.get(target) as SitePage;
      return {
        url: target,
        status: page.statusCode,
        error: page.error,
        links: sources.length,
        sources: sources.slice(0, listedSources),
      };
    });
  return issueOf(
    { check: "broken-links", category: "seo", importance: "high", title: "Broken links" },
    findings,
    (count) =>
      `Internal links point to ${plural(count, "URL")} that ${count === 1 ? "answers" : "answer"} an error or cannot be fetched.`,
    byUrl,
  );
};
