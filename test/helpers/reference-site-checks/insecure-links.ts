/** insecure-links: on an https site, internal links to http:// URLs (a downgrade, or a redirect per click). */
import type { SiteCheck } from "./reference-facts.js";
import { byUrl, issueOf, listedSources, plural, sourcesByTarget } from "./site-issue.js";

export const insecureLinks: SiteCheck = (site) => {
  if (!site.startUrl.startsWith("https:")) return null;
  const findings = [...sourcesByTarget(site, (link) => link.to.startsWith("http:"))].map(
    ([target, sources]) => ({
      url: target,
      sources: sources.slice(0, listedSources),
    }),
  );
  return issueOf(
    { check: "insecure-links", category: "security", importance: "medium", title: "Links to http://" },
    findings,
    (count) => `Internal links point to ${plural(count, "http:// URL")} on an https site.`,
    byUrl,
  );
};
