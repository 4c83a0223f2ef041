/**
 * hreflang-reciprocity: alternates that do not link back to the page, or that point to an error, a redirect or
 * a page whose canonical is another URL. Alternates the crawl did not fetch are not judged.
 */
import { isBroken } from "./broken-links.js";
import type { SiteCheck } from "./reference-facts.js";
import { issueOf, pagesByUrl, plural } from "./site-issue.js";

export const hreflangReciprocity: SiteCheck = (site) => {
  const pages = pagesByUrl(site);
  const findings = site.pages.flatMap((page) =>
    page.hreflang.flatMap(({ lang, url }) => {
      if (url === page.url) return [];
      const target = pages.get(url);
      if (!target || target.excluded !== null || (target.statusCode === null && target.error === null))
        return [];
      let problem: string | null = null;
      if (target.redirectTo !== null) problem = `redirects to ${target.redirectTo}`;
      else if (isBroken(target))
        problem = target.statusCode === null ? "cannot be fetched" : `answers ${target.statusCode}`;
      else if (target.canonical !== null && target.canonical !== target.url)
        problem = `names ${target.canonical} as canonical`;
      else if (!target.hreflang.some((alternate) => alternate.url === page.url))
        problem = "does not link back";
      return problem === null ? [] : [{ url: page.url, hreflang: lang, alternate: url, problem }];
    }),
  );
  return issueOf(
    { check: "hreflang-reciprocity", category: "seo", importance: "low", title: "hreflang alternates" },
    findings,
    (count) =>
      `${plural(count, "hreflang alternate")} ${count === 1 ? "is" : "are"} not reciprocal or not a valid page.`,
    (item) => [item.url, item.hreflang, item.alternate],
  );
};
