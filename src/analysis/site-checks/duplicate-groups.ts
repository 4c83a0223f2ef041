/**
 * Groups of indexable 200 pages that share a text field (case and spacing ignored): duplicate titles,
 * descriptions. Two passes over the pages, a batch at a time: the first counts each key by a 32-bit hash of it
 * (a number per distinct hash is all it holds), the second gathers only the pages whose key's hash came up
 * more than once, grouped by the key itself (so a collision of hashes costs a little work, never a finding).
 */
import { textKey } from "./finding-fingerprint.js";
import type { SiteIssueItem, SitePage } from "./site-facts.js";
import type { SiteSource } from "./site-source.js";

export async function duplicateGroups(
  site: SiteSource,
  field: "title" | "metaDescription",
  label: string,
): Promise<SiteIssueItem[]> {
  const keyOf = (page: SitePage) => {
    const value = page[field];
    return value ? textKey(value) : "";
  };
  const seen = new Map<number, number>();
  for await (const batch of site.pages("indexable")) {
    for (const page of batch) {
      const key = keyOf(page);
      if (key === "") continue;
      const hash = fnv1a(key);
      seen.set(hash, (seen.get(hash) ?? 0) + 1);
    }
  }
  for (const [hash, count] of seen) if (count < 2) seen.delete(hash);
  const groups = new Map<string, { shown: string; pages: string[] }>();
  if (seen.size > 0) {
    for await (const batch of site.pages("indexable")) {
      for (const page of batch) {
        const key = keyOf(page);
        if (key === "" || !seen.has(fnv1a(key))) continue;
        const group = groups.get(key) ?? { shown: (page[field] as string).trim(), pages: [] };
        group.pages.push(page.url);
        groups.set(key, group);
      }
    }
  }
  return [...groups.values()]
    .filter((group) => group.pages.length > 1)
    .sort((a, b) => b.pages.length - a.pages.length)
    .map((group) => ({ [label]: group.shown, pages: group.pages }));
}

/** The 32-bit FNV-1a of a string's UTF-16 code units. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5 | 0;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
