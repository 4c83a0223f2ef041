/** duplicate-title: indexable pages that share a title, so search results cannot tell them apart. */

import { textKey } from "../../../src/analysis/site-checks/finding-fingerprint.js";
import { duplicateGroups } from "./duplicate-groups.js";
import type { SiteCheck } from "./reference-facts.js";
import { issueOf, plural } from "./site-issue.js";

export const duplicateTitle: SiteCheck = (site) =>
  issueOf(
    { check: "duplicate-title", category: "seo", importance: "medium", title: "Duplicate titles" },
    duplicateGroups(site, "title", "title"),
    (count) => `${plural(count, "title is", "titles are")} shared by several indexable pages.`,
    (item) => [textKey(String(item.title))],
  );
