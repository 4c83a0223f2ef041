/**
 * sitemap-errors: sitemap URLs that redirect, answer an error, are noindex, are disallowed by robots.txt, or
 * name another URL as canonical — a sitemap should list only the canonical, indexable pages.
 */
import type { SiteCheck, SitePage } from "./reference-facts.js";
import { byUrl, issueOf, plural } from "./site-issue.js";

function problemOf(page: SitePage): string | null {
  if (page.disallowed) return "disallowed by robots.txt";
  if (page.redirectTo !== null) return `redirects to ${page.redirectTo}`;
  if (page.error !== null) return `could not be fetched (${page.error})`;
  if (page.statusCode !== null && page.statusCode >= 400 && ![401, 403, 429].includes(page.statusCode))
    return `answers ${page.statusCode}`;
  if (page.noindex) return "is noindex";
  if (page.canonical !== null && page.canonical !== page.url) return `names ${page.canonical} as canonical`;
  return null;
}

export const sitemapErrors: SiteCheck = (site) => {
  const findings = site.pages
    .filter((page) => page.inSitemap)
    .map((page) => ({ url: page.url, problem: problemOf(page) }))
    .filter((finding) => finding.problem !== null);
  return issueOf(
    { check: "sitemap-errors", category: "seo", importance: "medium", title: "Sitemap errors" },
    findings,
    (count) =>
      `${plural(count, "sitemap URL")} ${count === 1 ? "is" : "are"} not a canonical, indexable page.`,
    byUrl,
  );
};
