/** nofollow-internal-links: internal links marked rel=nofollow that point to indexable pages of the site. */

import { linkTargetIssue } from "./link-target-issue.js";
import type { SiteCheckDefinition } from "./site-check.js";
import { plural } from "./site-issue.js";

export const nofollowInternalLinks: SiteCheckDefinition = {
  id: "nofollow-internal-links",
  category: "seo",
  importance: "low",
  title: "Nofollow internal links",
  description: "No internal link to an indexable page of the site is marked rel=nofollow.",
  howToFix: "Remove rel=nofollow from links to your own pages.",
  needs: ["links"],
  run: (site) =>
    linkTargetIssue(
      nofollowInternalLinks,
      site,
      "nofollow",
      (count) => `Internal nofollow links point to ${plural(count, "indexable page")}.`,
    ),
};
