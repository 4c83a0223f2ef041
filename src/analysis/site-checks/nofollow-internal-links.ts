/** nofollow-internal-links: internal links marked rel=nofollow that point to indexable pages of the site. */

import { byUrl, issueOf, listedSources, plural } from "./site-issue.js";
import type { SiteCheck } from "./site-source.js";
import { siteCheckTitles } from "./titles.js";

export const nofollowInternalLinks: SiteCheck = async (site) => {
  const findings = (await site.linkTargets("nofollow", listedSources)).map((target) => ({
    url: target.url,
    sources: target.sources,
  }));
  return issueOf(
    {
      check: "nofollow-internal-links",
      category: "seo",
      importance: "low",
      title: siteCheckTitles["nofollow-internal-links"],
    },
    findings,
    (count) => `Internal nofollow links point to ${plural(count, "indexable page")}.`,
    byUrl,
  );
};
