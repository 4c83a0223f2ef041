/** nofollow-internal-links: internal links marked rel=nofollow that point to indexable pages of the site. */

import type { SiteCheckDefinition } from "./site-check.js";
import { byUrl, issueOf, listedSources, plural } from "./site-issue.js";

export const nofollowInternalLinks: SiteCheckDefinition = {
  id: "nofollow-internal-links",
  category: "seo",
  importance: "low",
  title: "Nofollow internal links",
  description: "No internal link to an indexable page of the site is marked rel=nofollow.",
  howToFix: "Remove rel=nofollow from links to your own pages.",
  needs: ["links"],
  async run(site) {
    const findings = (await site.linkTargets("nofollow", listedSources)).map((target) => ({
      url: target.url,
      sources: target.sources,
    }));
    return issueOf(
      nofollowInternalLinks,
      findings,
      (count) => `Internal nofollow links point to ${plural(count, "indexable page")}.`,
      byUrl,
    );
  },
};
