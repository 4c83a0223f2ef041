/** duplicate-meta-description: indexable pages that share a meta description. */
import { duplicateGroups } from "./duplicate-groups.js";
import { textKey } from "./finding-fingerprint.js";
import { issueOf, plural } from "./site-issue.js";
import type { SiteCheck } from "./site-source.js";
import { siteCheckTitles } from "./titles.js";

export const duplicateMetaDescription: SiteCheck = async (site) =>
  issueOf(
    {
      check: "duplicate-meta-description",
      category: "seo",
      importance: "low",
      title: siteCheckTitles["duplicate-meta-description"],
    },
    await duplicateGroups(site, "metaDescription", "description"),
    (count) =>
      `${plural(count, "meta description is", "meta descriptions are")} shared by several indexable pages.`,
    (item) => [textKey(String(item.description))],
  );
