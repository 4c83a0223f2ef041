/** redirected-links: internal links to URLs that redirect (each click costs a round trip; link to the target). */
import type { SiteCheck, SitePage } from "./reference-facts.js";
import { byUrl, issueOf, listedSources, pagesByUrl, plural, sourcesByTarget } from "./site-issue.js";

export const redirectedLinks: SiteCheck = (site) => {
  const pages = pagesByUrl(site);
  const findings = [...sourcesByTarget(site)]
    .filter(([target]) => (pages.get(target)?.redirectTo ?? null) !== null)
    .map(([target, sources]) => ({
      url: target,
      status: (pages.get(target) as SitePage).statusCode,
      redirect_to: (pages.get(target) as SitePage).redirectTo,
      sources: sources.slice(0, listedSources),
    }));
  return issueOf(
    { check: "redirected-links", category: "seo", importance: "low", title: "Links to redirects" },
    findings,
    (count) =>
      `Internal links point to ${plural(count, "URL")} that ${count === 1 ? "redirects" : "redirect"}; link to where ${count === 1 ? "it goes" : "they go"} instead.`,
    byUrl,
  );
};
