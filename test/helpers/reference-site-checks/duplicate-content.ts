/**
 * duplicate-content: indexable pages whose visible text is the same, or at least 90 % similar (estimated from
 * the minhash fingerprints). Candidates come from locality-sensitive hashing (16 bands of 4 hashes: pages that
 * agree on a whole band), so a site of 10,000 pages is never compared pair by pair; each candidate pair is then
 * confirmed on the whole fingerprint, and confirmed pairs are joined into groups.
 */

import { groupMembers } from "../../../src/analysis/site-checks/finding-fingerprint.js";
import { similarity } from "../../../src/analysis/site-checks/text-fingerprint.js";
import type { SiteCheck, SitePage } from "./reference-facts.js";
import { isIndexable200, issueOf, plural } from "./site-issue.js";

const threshold = 0.9;
const bands = 16;
const rows = 4;

export const duplicateContent: SiteCheck = (site) => {
  const pages = site.pages.filter(
    (page): page is SitePage & { text: NonNullable<SitePage["text"]> } =>
      isIndexable200(page) && page.text !== null,
  );
  const parent = pages.map((_, index) => index);
  const find = (index: number): number => {
    while (parent[index] !== index) {
      parent[index] = parent[parent[index] as number] as number;
      index = parent[index] as number;
    }
    return index;
  };
  const union = (a: number, b: number) => {
    const [rootA, rootB] = [find(a), find(b)];
    if (rootA !== rootB) parent[Math.max(rootA, rootB)] = Math.min(rootA, rootB);
  };
  const checked = new Set<string>();
  for (let band = 0; band < bands; band++) {
    const buckets = new Map<string, number[]>();
    pages.forEach((page, index) => {
      const key = page.text.minhash.slice(band * rows, band * rows + rows).join(",");
      const bucket = buckets.get(key) ?? [];
      bucket.push(index);
      buckets.set(key, bucket);
    });
    for (const bucket of buckets.values()) {
      for (let i = 1; i < bucket.length; i++) {
        const [a, b] = [bucket[0] as number, bucket[i] as number];
        if (find(a) === find(b)) continue;
        const pair = `${a}:${b}`;
        if (checked.has(pair)) continue;
        checked.add(pair);
        if (
          similarity(
            (pages[a] as SitePage & { text: NonNullable<SitePage["text"]> }).text,
            (pages[b] as (typeof pages)[number]).text,
          ) >= threshold
        )
          union(a, b);
      }
    }
  }
  const groups = new Map<number, string[]>();
  pages.forEach((page, index) => {
    const root = find(index);
    groups.set(root, [...(groups.get(root) ?? []), page.url]);
  });
  const findings = [...groups.values()]
    .filter((group) => group.length > 1)
    .sort((a, b) => b.length - a.length)
    .map((group) => ({ pages: group }));
  return issueOf(
    { check: "duplicate-content", category: "seo", importance: "medium", title: "Duplicate content" },
    findings,
    (count) => `${plural(count, "group")} of indexable pages have the same or nearly the same text (≥ 90 %).`,
    (item) => groupMembers(item.pages),
  );
};
