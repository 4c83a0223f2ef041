/** click-depth: indexable pages more than 4 clicks from the start page (search engines and people reach them late). */

import { byUrl, issueOf, plural } from "./site-issue.js";
import type { SiteCheck } from "./site-source.js";

const deepest = 4;

export const clickDepth: SiteCheck = async (site) =>
  issueOf(
    { check: "click-depth", category: "seo", importance: "low", title: "Deep pages" },
    (await site.deepPages(deepest)).map((page) => ({ url: page.url, depth: page.depth })),
    (count) =>
      `${plural(count, "indexable page")} ${count === 1 ? "is" : "are"} more than ${deepest} clicks from the start page.`,
    byUrl,
  );
