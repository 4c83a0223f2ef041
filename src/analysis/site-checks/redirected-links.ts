/** redirected-links: internal links to URLs that redirect (each click costs a round trip; link to the target). */

import { linkTargetIssue } from "./link-target-issue.js";
import type { SiteCheckDefinition } from "./site-check.js";
import { plural } from "./site-issue.js";

export const redirectedLinks: SiteCheckDefinition = {
  id: "redirected-links",
  category: "seo",
  importance: "low",
  title: "Links to redirects",
  description:
    "Internal links point straight to where a page lives, not to a URL that redirects (each click would cost a round trip).",
  howToFix: "Link straight to the final address instead of one that redirects.",
  needs: ["links"],
  run: (site) =>
    linkTargetIssue(
      redirectedLinks,
      site,
      "redirected",
      (count) =>
        `Internal links point to ${plural(count, "URL")} that ${count === 1 ? "redirects" : "redirect"}; link to where ${count === 1 ? "it goes" : "they go"} instead.`,
      (target) => ({ status: target.page?.statusCode ?? null, redirect_to: target.page?.redirectTo ?? null }),
    ),
};
