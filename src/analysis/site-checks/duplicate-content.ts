/**
 * duplicate-content: indexable pages whose visible text is the same, or at least 90 % similar (estimated from
 * the minhash fingerprints). Candidates come from locality-sensitive hashing (16 bands of 4 hashes: pages that
 * agree on a whole band), so a site of 100,000 pages is never compared pair by pair; each page is compared with
 * the first page of its band's bucket, confirmed on the whole fingerprint, and confirmed pairs are joined into
 * groups (union-find, so the groups do not depend on the order pairs are confirmed in).
 *
 * What it holds is one compact row per page with text: the 64 hashes in typed arrays (256 bytes a page),
 * the text's hash and the URL; a band's buckets exist only while that band is read, and the event loop is let
 * go every 8,192 pages of a band.
 */

import { setImmediate as nextTurn } from "node:timers/promises";
import { groupMembers } from "./finding-fingerprint.js";
import { issueOf, plural } from "./site-issue.js";
import type { SiteCheck } from "./site-source.js";

const threshold = 0.9;
const bands = 16;
const rows = 4;
const hashes = bands * rows;
const chunkShift = 10;
const chunkPages = 1 << chunkShift;
/** Pages a band reads between two turns of the event loop. */
const yieldEvery = 8192;

export const duplicateContent: SiteCheck = async (site) => {
  // The minhashes in chunks of 1,024 pages (256 KiB each): never copied as they grow.
  const chunks: Uint32Array[] = [];
  const textHashes: string[] = [];
  const urls: string[] = [];
  for await (const batch of site.pages("texts")) {
    for (const page of batch) {
      if (page.text === null) continue;
      const at = urls.length;
      if (at % chunkPages === 0) chunks.push(new Uint32Array(chunkPages * hashes));
      (chunks[chunks.length - 1] as Uint32Array).set(
        page.text.minhash.slice(0, hashes),
        (at % chunkPages) * hashes,
      );
      textHashes.push(page.text.hash);
      urls.push(page.url);
    }
  }
  const valueAt = (page: number, slot: number) =>
    (chunks[page >>> chunkShift] as Uint32Array)[(page & (chunkPages - 1)) * hashes + slot] as number;
  const count = urls.length;
  const similar = (a: number, b: number) => {
    if (textHashes[a] === textHashes[b]) return true;
    let equal = 0;
    for (let slot = 0; slot < hashes; slot++) {
      if (valueAt(a, slot) === valueAt(b, slot)) equal++;
    }
    return equal / hashes >= threshold;
  };
  const parent = new Int32Array(count);
  for (let index = 0; index < count; index++) parent[index] = index;
  const find = (index: number): number => {
    while (parent[index] !== index) {
      parent[index] = parent[parent[index] as number] as number;
      index = parent[index] as number;
    }
    return index;
  };
  const checked = new Set<string>();
  for (let band = 0; band < bands; band++) {
    const firsts = new Map<string, number>();
    for (let index = 0; index < count; index++) {
      if (index % yieldEvery === yieldEvery - 1) await nextTurn();
      const from = band * rows;
      const key = `${valueAt(index, from)},${valueAt(index, from + 1)},${valueAt(index, from + 2)},${valueAt(index, from + 3)}`;
      const first = firsts.get(key);
      if (first === undefined) {
        firsts.set(key, index);
        continue;
      }
      const [rootA, rootB] = [find(first), find(index)];
      if (rootA === rootB) continue;
      const pair = `${first}:${index}`;
      if (checked.has(pair)) continue;
      checked.add(pair);
      if (similar(first, index)) parent[Math.max(rootA, rootB)] = Math.min(rootA, rootB);
    }
    await nextTurn();
  }
  const groups = new Map<number, string[]>();
  for (let index = 0; index < count; index++) {
    const root = find(index);
    const group = groups.get(root);
    if (group) group.push(urls[index] as string);
    else groups.set(root, [urls[index] as string]);
  }
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
