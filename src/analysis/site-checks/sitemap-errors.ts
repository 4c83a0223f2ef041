/**
 * sitemap-errors: sitemap URLs that redirect, answer an error, are noindex, are disallowed by robots.txt, or
 * name another URL as canonical — a sitemap should list only the canonical, indexable pages.
 */

import type { SiteCheckDefinition } from "./site-check.js";
import type { SitePage } from "./site-facts.js";
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

export const sitemapErrors: SiteCheckDefinition = {
  id: "sitemap-errors",
  category: "seo",
  importance: "medium",
  title: "Sitemap errors",
  description:
    "A sitemap lists only canonical, indexable pages: none that redirects, answers an error, is noindex, is disallowed by robots.txt or names another canonical.",
  howToFix: "List only indexable pages that answer 200 at their final address in the sitemap.",
  async run(site) {
    const findings: Array<{ url: string; problem: string }> = [];
    for await (const batch of site.pages("sitemap")) {
      for (const page of batch) {
        const problem = problemOf(page);
        if (problem !== null) findings.push({ url: page.url, problem });
      }
    }
    return issueOf(
      sitemapErrors,
      findings,
      (count) =>
        `${plural(count, "sitemap URL")} ${count === 1 ? "is" : "are"} not a canonical, indexable page.`,
      byUrl,
    );
  },
};
