/** click-depth: indexable pages more than 4 clicks from the start page (search engines and people reach them late). */

import { byUrl, issueOf, plural } from "./site-issue.js";
import type { SiteCheck } from "./site-source.js";

const deepest = 4;

export const clickDepth: SiteCheck = async (site) => {
  const findings: Array<{ url: string; depth: number | null }> = [];
  for await (const batch of site.deepPages(deepest)) {
    for (const page of batch) findings.push({ url: page.url, depth: page.depth });
  }
  return issueOf(
    { check: "click-depth", category: "seo", importance: "low", title: "Deep pages" },
    findings,
    (count) =>
      `${plural(count, "indexable page")} ${count === 1 ? "is" : "are"} more than ${deepest} clicks from the start page.`,
    byUrl,
  );
};
