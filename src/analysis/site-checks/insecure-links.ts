/** insecure-links: on an https site, internal links to http:// URLs (a downgrade, or a redirect per click). */

import { byUrl, issueOf, listedSources, plural } from "./site-issue.js";
import type { SiteCheck } from "./site-source.js";
import { siteCheckTitles } from "./titles.js";

export const insecureLinks: SiteCheck = async (site) => {
  if (!site.startUrl.startsWith("https:")) return null;
  const findings = (await site.linkTargets("insecure", listedSources)).map((target) => ({
    url: target.url,
    sources: target.sources,
  }));
  return issueOf(
    {
      check: "insecure-links",
      category: "security",
      importance: "medium",
      title: siteCheckTitles["insecure-links"],
    },
    findings,
    (count) => `Internal links point to ${plural(count, "http:// URL")} on an https site.`,
    byUrl,
  );
};
