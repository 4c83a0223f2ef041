/**
 * canonical-targets: canonicals that point to a redirect, an error, a noindex page, or a page that names yet
 * another canonical. A page that is its own canonical is fine; a canonical to a URL the crawl did not fetch is
 * not judged. Pages naming another canonical are read a batch at a time, each batch with its targets.
 */

import { judgedTarget, unfitTarget } from "./named-targets.js";
import type { SiteCheckDefinition } from "./site-check.js";
import { byUrl, issueOf, plural } from "./site-issue.js";

export const canonicalTargets: SiteCheckDefinition = {
  id: "canonical-targets",
  category: "seo",
  importance: "high",
  title: "Broken canonicals",
  description:
    "Every canonical a page names is an indexable page that answers 200 and names itself as canonical: not a redirect, an error or a noindex page.",
  howToFix: "Make every canonical name an indexable page that answers 200 and names itself as canonical.",
  async run(site) {
    const findings: Array<{ url: string; canonical: string; problem: string }> = [];
    for await (const batch of site.pages("canonicals")) {
      const targets = await site.pagesAt(batch.map((page) => page.canonical as string));
      for (const page of batch) {
        const canonical = page.canonical as string;
        const target = judgedTarget(targets, canonical);
        if (!target) continue;
        const problem = unfitTarget(target, { noindex: true });
        if (problem !== null) findings.push({ url: page.url, canonical, problem });
      }
    }
    return issueOf(
      canonicalTargets,
      findings,
      (count) =>
        `${plural(count, "page")} ${count === 1 ? "names" : "name"} a canonical that is not a canonical, indexable page.`,
      byUrl,
    );
  },
};
