/**
 * broken-links: internal links to URLs that answer 404, 410 or 5xx, or that could not be fetched at all. 401,
 * 403 and 429 are a firewall's or a login's answer, not a missing page: never reported. The source finds the
 * targets (`linkTargets("broken")`: in the database, a join of the links with their target's status).
 */

import { linkTargetIssue } from "./link-target-issue.js";
import type { SiteCheckDefinition } from "./site-check.js";
import { plural } from "./site-issue.js";

export const brokenLinks: SiteCheckDefinition = {
  id: "broken-links",
  category: "seo",
  importance: "high",
  title: "Broken links",
  description:
    "Every internal link leads to a page that answers; none to a URL that answers 404, 410 or 5xx, or cannot be fetched (401, 403 and 429 are not counted).",
  howToFix:
    "Point each link at a page that exists, or remove it; restore or redirect pages that are still linked.",
  needs: ["links"],
  run: (site) =>
    linkTargetIssue(
      brokenLinks,
      site,
      "broken",
      (count) =>
        `Internal links point to ${plural(count, "URL")} that ${count === 1 ? "answers" : "answer"} an error or cannot be fetched.`,
      (target) => ({
        status: target.page?.statusCode ?? null,
        error: target.page?.error ?? null,
        links: target.sourceCount,
      }),
    ),
};
