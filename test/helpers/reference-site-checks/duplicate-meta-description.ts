/** duplicate-meta-description: indexable pages that share a meta description. */

import { textKey } from "../../../src/analysis/site-checks/finding-fingerprint.js";
import { duplicateGroups } from "./duplicate-groups.js";
import type { SiteCheck } from "./reference-facts.js";
import { issueOf, plural } from "./site-issue.js";

export const duplicateMetaDescription: SiteCheck = (site) =>
  issueOf(
    {
      check: "duplicate-meta-description",
      category: "seo",
      importance: "low",
      title: "Duplicate meta descriptions",
    },
    duplicateGroups(site, "metaDescription", "description"),
    (count) =>
      `${plural(count, "meta description is", "meta descriptions are")} shared by several indexable pages.`,
    (item) => [textKey(String(item.description))],
  );
