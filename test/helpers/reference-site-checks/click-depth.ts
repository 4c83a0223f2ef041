/** click-depth: indexable pages more than 4 clicks from the start page (search engines and people reach them late). */
import type { SiteCheck } from "./reference-facts.js";
import { byUrl, isIndexable200, issueOf, plural } from "./site-issue.js";

const deepest = 4;

export const clickDepth: SiteCheck = (site) =>
  issueOf(
    { check: "click-depth", category: "seo", importance: "low", title: "Deep pages" },
    site.pages
      .filter((page) => isIndexable200(page) && page.depth !== null && page.depth > deepest)
      .sort((a, b) => (b.depth as number) - (a.depth as number))
      .map((page) => ({ url: page.url, depth: page.depth })),
    (count) =>
      `${plural(count, "indexable page")} ${count === 1 ? "is" : "are"} more than ${deepest} clicks from the start page.`,
    byUrl,
  );
