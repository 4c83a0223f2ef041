/** nofollow-internal-links: internal links marked rel=nofollow that point to indexable pages of the site. */
import type { SiteCheck } from "./reference-facts.js";
import {
  byUrl,
  isIndexable200,
  issueOf,
  listedSources,
  pagesByUrl,
  plural,
  sourcesByTarget,
} from "./site-issue.js";

export const nofollowInternalLinks: SiteCheck = (site) => {
  const pages = pagesByUrl(site);
  const findings = [...sourcesByTarget(site, (link) => link.nofollow)]
    .filter(([target]) => {
      const page = pages.get(target);
      return page !== undefined && isIndexable200(page);
    })
    .map(([target, sources]) => ({ url: target, sources: sources.slice(0, listedSources) }));
  return issueOf(
    {
      check: "nofollow-internal-links",
      category: "seo",
      importance: "low",
      title: "Nofollow internal links",
    },
    findings,
    (count) => `Internal nofollow links point to ${plural(count, "indexable page")}.`,
    byUrl,
  );
};
