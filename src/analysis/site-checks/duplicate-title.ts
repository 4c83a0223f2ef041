/** duplicate-title: indexable pages that share a title, so search results cannot tell them apart. */
import { duplicateGroups } from "./duplicate-groups.js";
import { textKey } from "./finding-fingerprint.js";
import type { SiteCheckDefinition } from "./site-check.js";
import { issueOf, plural } from "./site-issue.js";

export const duplicateTitle: SiteCheckDefinition = {
  id: "duplicate-title",
  category: "seo",
  importance: "medium",
  title: "Duplicate titles",
  description:
    "No two indexable pages share a title (case and spacing ignored), so search results can tell them apart.",
  howToFix: "Give each page a title of its own that says what is on it.",
  async run(site) {
    return issueOf(
      duplicateTitle,
      await duplicateGroups(site, "title", "title"),
      (count) => `${plural(count, "title is", "titles are")} shared by several indexable pages.`,
      (item) => [textKey(String(item.title))],
    );
  },
};
