/** Groups of indexable 200 pages that share a text field (case and spacing ignored): duplicate titles, descriptions. */
import type { SiteFacts, SiteIssueItem } from "./reference-facts.js";
import { isIndexable200 } from "./site-issue.js";

export function duplicateGroups(
  site: SiteFacts,
  field: "title" | "metaDescription",
  label: string,
): SiteIssueItem[] {
  const groups = new Map<string, { shown: string; pages: string[] }>();
  for (const page of site.pages) {
    const value = page[field];
    if (!isIndexable200(page) || !value) continue;
    const key = value.replace(/\s+/g, " ").trim().toLowerCase();
    if (key === "") continue;
    const group = groups.get(key) ?? { shown: value.trim(), pages: [] };
    group.pages.push(page.url);
    groups.set(key, group);
  }
  return [...groups.values()]
    .filter((group) => group.pages.length > 1)
    .sort((a, b) => b.pages.length - a.pages.length)
    .map((group) => ({ [label]: group.shown, pages: group.pages }));
}
