/** duplicate-title: indexable pages that share a title, so search results cannot tell them apart. */
import { duplicateGroups } from "./duplicate-groups.js";
import { textKey } from "./finding-fingerprint.js";
import { issueOf, plural } from "./site-issue.js";
import type { SiteCheck } from "./site-source.js";
import { siteCheckTitles } from "./titles.js";

export const duplicateTitle: SiteCheck = async (site) =>
  issueOf(
    {
      check: "duplicate-title",
      category: "seo",
      importance: "medium",
      title: siteCheckTitles["duplicate-title"],
    },
    await duplicateGroups(site, "title", "title"),
    (count) => `${plural(count, "title is", "titles are")} shared by several indexable pages.`,
    (item) => [textKey(String(item.title))],
  );
