/**
 * hreflang-reciprocity: alternates that do not link back to the page, or that point to an error, a redirect or
 * a page whose canonical is another URL. Alternates the crawl did not fetch are not judged. Pages declaring
 * alternates are read a batch at a time, each batch with the pages its alternates name.
 */

import { judgedTarget, unfitTarget } from "./named-targets.js";
import type { SiteCheckDefinition } from "./site-check.js";
import { issueOf, plural } from "./site-issue.js";

export const hreflangReciprocity: SiteCheckDefinition = {
  id: "hreflang-reciprocity",
  category: "seo",
  importance: "low",
  title: "hreflang alternates",
  description:
    "Every hreflang alternate links back to the page and is a valid page: not an error, a redirect or a page whose canonical is another URL.",
  howToFix:
    "Make each alternate a valid page that links back with its own hreflang, and names itself as canonical.",
  async run(site) {
    const findings: Array<{ url: string; hreflang: string; alternate: string; problem: string }> = [];
    for await (const batch of site.pages("hreflang")) {
      const targets = await site.pagesAt([
        ...new Set(batch.flatMap((page) => page.hreflang.map(({ url }) => url))),
      ]);
      for (const page of batch) {
        for (const { lang, url } of page.hreflang) {
          if (url === page.url) continue;
          const target = judgedTarget(targets, url);
          if (!target) continue;
          let problem = unfitTarget(target, { noindex: false });
          if (problem === null && !target.hreflang.some((alternate) => alternate.url === page.url))
            problem = "does not link back";
          if (problem !== null) findings.push({ url: page.url, hreflang: lang, alternate: url, problem });
        }
      }
    }
    return issueOf(
      hreflangReciprocity,
      findings,
      (count) =>
        `${plural(count, "hreflang alternate")} ${count === 1 ? "is" : "are"} not reciprocal or not a valid page.`,
      (item) => [item.url, item.hreflang, item.alternate],
    );
  },
};
