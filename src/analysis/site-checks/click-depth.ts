/** click-depth: indexable pages more than 4 clicks from the start page (search engines and people reach them late). */

import type { SiteCheckDefinition } from "./site-check.js";
import { byUrl, FindingList, plural } from "./site-issue.js";

const deepest = 4;

export const clickDepth: SiteCheckDefinition = {
  id: "click-depth",
  category: "seo",
  importance: "low",
  title: "Deep pages",
  description:
    "Every indexable page is at most 4 clicks from the start page, where search engines and people reach it early.",
  howToFix:
    "Link deep pages from the home page, a section page or the navigation so they are a few clicks away.",
  async run(site, sink) {
    // A large site may have most of its pages deep: the findings go to the sink as they come.
    const findings = new FindingList<{ url: string; depth: number | null }>(clickDepth, byUrl, sink);
    for await (const batch of site.deepPages(deepest)) {
      for (const page of batch) await findings.add({ url: page.url, depth: page.depth });
    }
    return findings.issue(
      (count) =>
        `${plural(count, "indexable page")} ${count === 1 ? "is" : "are"} more than ${deepest} clicks from the start page.`,
    );
  },
};
