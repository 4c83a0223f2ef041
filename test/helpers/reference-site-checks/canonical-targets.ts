/**
 * canonical-targets: canonicals that point to a redirect, an error, a noindex page, or a page that names yet
 * another canonical. A page that is its own canonical is fine; a canonical to a URL the crawl did not fetch is
 * not judged.
 */
import { isBroken } from "./broken-links.js";
import type { SiteCheck, SitePage } from "./reference-facts.js";
import { byUrl, issueOf, pagesByUrl, plural } from "./site-issue.js";

function problemOf(target: SitePage): string | null {
  if (target.redirectTo !== null) return `redirects to ${target.redirectTo}`;
  if (isBroken(target))
    return target.statusCode === null ? "cannot be fetched" : `answers ${target.statusCode}`;
  if (target.noindex) return "is noindex";
  if (target.canonical !== null && target.canonical !== target.url)
    return `names ${target.canonical} as canonical`;
  return null;
}

export const canonicalTargets: SiteCheck = (site) => {
  const pages = pagesByUrl(site);
  const findings = site.pages.flatMap((page) => {
    if (page.canonical === null || page.canonical === page.url) return [];
    const target = pages.get(page.canonical);
    if (!target || target.excluded !== null || (target.statusCode === null && target.error === null))
      return [];
    const problem = problemOf(target);
    return problem === null ? [] : [{ url: page.url, canonical: page.canonical, problem }];
  });
  return issueOf(
    { check: "canonical-targets", category: "seo", importance: "high", title: "Broken canonicals" },
    findings,
    (count) =>
      `${plural(count, "page")} ${count === 1 ? "names" : "name"} a canonical that is not a canonical, indexable page.`,
    byUrl,
  );
};
