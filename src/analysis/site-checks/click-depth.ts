/** click-depth: indexable pages more than 4 clicks from the start page (search engines and people reach them late). */

import { byUrl, FindingList, plural } from "./site-issue.js";
import type { SiteCheck } from "./site-source.js";
import { siteCheckTitles } from "./titles.js";

const deepest = 4;

export const clickDepth: SiteCheck = async (site, sink) => {
  // A large site may have most of its pages deep: the findings go to the sink as they come.
  const findings = new FindingList<{ url: string; depth: number | null }>(
    { check: "click-depth", category: "seo", importance: "low", title: siteCheckTitles["click-depth"] },
    byUrl,
    sink,
  );
  for await (const batch of site.deepPages(deepest)) {
    for (const page of batch) await findings.add({ url: page.url, depth: page.depth });
  }
  return findings.issue(
    (count) =>
      `${plural(count, "indexable page")} ${count === 1 ? "is" : "are"} more than ${deepest} clicks from the start page.`,
  );
};
