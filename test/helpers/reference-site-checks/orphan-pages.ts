/** orphan-pages: URLs listed in a sitemap that no crawled page links to (the start page is never an orphan). */
import type { SiteCheck } from "./reference-facts.js";
import { byUrl, issueOf, plural, sourcesByTarget } from "./site-issue.js";

export const orphanPages: SiteCheck = (site) => {
  const linked = sourcesByTarget(site);
  const findings = site.pages
    .filter((page) => page.inSitemap && page.url !== site.startUrl && !linked.has(page.url))
    .map((page) => ({ url: page.url }));
  return issueOf(
    { check: "orphan-pages", category: "seo", importance: "medium", title: "Orphan pages" },
    findings,
    (count) =>
      `${plural(count, "URL")} in the sitemaps ${count === 1 ? "is" : "are"} not linked from any crawled page.`,
    byUrl,
  );
};
