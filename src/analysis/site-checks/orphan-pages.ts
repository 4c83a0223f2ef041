/** orphan-pages: URLs listed in a sitemap that no crawled page links to (the start page is never an orphan). */

import { byUrl, issueOf, plural } from "./site-issue.js";
import type { SiteCheck } from "./site-source.js";
import { siteCheckTitles } from "./titles.js";

export const orphanPages: SiteCheck = async (site) =>
  issueOf(
    { check: "orphan-pages", category: "seo", importance: "medium", title: siteCheckTitles["orphan-pages"] },
    (await site.unlinkedSitemapPages()).map((page) => ({ url: page.url })),
    (count) =>
      `${plural(count, "URL")} in the sitemaps ${count === 1 ? "is" : "are"} not linked from any crawled page.`,
    byUrl,
  );
