/** insecure-links: on an https site, internal links to http:// URLs (a downgrade, or a redirect per click). */

import { linkTargetIssue } from "./link-target-issue.js";
import type { SiteCheckDefinition } from "./site-check.js";
import { plural } from "./site-issue.js";

export const insecureLinks: SiteCheckDefinition = {
  id: "insecure-links",
  category: "security",
  importance: "medium",
  title: "Links to http://",
  description:
    "On an https site, no internal link points to an http:// URL (a downgrade, or a redirect on every click).",
  howToFix: "Link to the https:// address of each internal page.",
  needs: ["links"],
  async run(site) {
    if (!site.startUrl.startsWith("https:")) return null;
    return linkTargetIssue(
      insecureLinks,
      site,
      "insecure",
      (count) => `Internal links point to ${plural(count, "http:// URL")} on an https site.`,
    );
  },
};
