/** redirected-links: internal links to URLs that redirect (each click costs a round trip; link to the target). */

import { byUrl, issueOf, listedSources, plural } from "./site-issue.js";
import type { SiteCheck } from "./site-source.js";
import { siteCheckTitles } from "./titles.js";

export const redirectedLinks: SiteCheck = async (site) => {
  const findings = (await site.linkTargets("redirected", listedSources)).map((target) => ({
    url: target.url,
    status: target.page?.statusCode ?? null,
    redirect_to: target.page?.redirectTo ?? null,
    sources: target.sources,
  }));
  return issueOf(
    {
      check: "redirected-links",
      category: "seo",
      importance: "low",
      title: siteCheckTitles["redirected-links"],
    },
    findings,
    (count) =>
      `Internal links point to ${plural(count, "URL")} that ${count === 1 ? "redirects" : "redirect"}; link to where ${count === 1 ? "it goes" : "they go"} instead.`,
    byUrl,
  );
};
