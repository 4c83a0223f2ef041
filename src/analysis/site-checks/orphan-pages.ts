/** orphan-pages: URLs listed in a sitemap that no crawled page links to (the start page is never an orphan). */

import type { SiteCheckDefinition } from "./site-check.js";
import { byUrl, issueOf, plural } from "./site-issue.js";

export const orphanPages: SiteCheckDefinition = {
  id: "orphan-pages",
  category: "seo",
  importance: "medium",
  title: "Orphan pages",
  description: "Every URL listed in a sitemap is linked from some crawled page (the start page aside).",
  howToFix: "Link to each orphan page from a related page, or remove it from the sitemap if it is gone.",
  needs: ["links"],
  async run(site) {
    return issueOf(
      orphanPages,
      (await site.unlinkedSitemapPages()).map((page) => ({ url: page.url })),
      (count) =>
        `${plural(count, "URL")} in the sitemaps ${count === 1 ? "is" : "are"} not linked from any crawled page.`,
      byUrl,
    );
  },
};
