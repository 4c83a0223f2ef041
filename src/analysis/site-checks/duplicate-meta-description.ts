/** duplicate-meta-description: indexable pages that share a meta description. */
import { duplicateGroups } from "./duplicate-groups.js";
import { textKey } from "./finding-fingerprint.js";
import type { SiteCheckDefinition } from "./site-check.js";
import { issueOf, plural } from "./site-issue.js";

export const duplicateMetaDescription: SiteCheckDefinition = {
  id: "duplicate-meta-description",
  category: "seo",
  importance: "low",
  title: "Duplicate meta descriptions",
  description: "No two indexable pages share a meta description (case and spacing ignored).",
  howToFix: "Write a description of its own for each page.",
  async run(site) {
    return issueOf(
      duplicateMetaDescription,
      await duplicateGroups(site, "metaDescription", "description"),
      (count) =>
        `${plural(count, "meta description is", "meta descriptions are")} shared by several indexable pages.`,
      (item) => [textKey(String(item.description))],
    );
  },
};
