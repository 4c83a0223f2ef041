/**
 * duplicate-content: indexable pages whose visible text is the same, or at least 90 % similar (estimated from
 * the minhash fingerprints). Candidates come from locality-sensitive hashing (16 bands of 4 hashes: pages that
 * agree on a whole band), so a site of 100,000 pages is never compared pair by pair; each page is compared with
 * the first page of its band's bucket, confirmed on the whole fingerprint, and confirmed pairs are joined into
 * groups (union-find, so the groups do not depend on the order pairs are confirmed in).
 *
 * What it holds is one compact row per page with text, in typed arrays: the 64 hashes (256 bytes a page) and
 * the first 64 bits of the text's hash (8 bytes); no URL. A band's buckets (keyed by a small integer hash of
 * the band, its values compared on a hit) exist only while that band is read,
 * and the event loop is let go every 8,192 pages of a band. Once the groups are known, the pages are read again
 * in the same order to name the members of groups of more than one (only their URLs are kept).
 */

import { setImmediate as nextTurn } from "node:timers/promises";
import { groupMembers } from "./finding-fingerprint.js";
import type { SiteCheckDefinition } from "./site-check.js";
import { issueOf, plural } from "./site-issue.js";

const threshold = 0.9;
const bands = 16;
const rows = 4;
const hashes = bands * rows;
const chunkShift = 10;
const chunkPages = 1 << chunkShift;
/** Pages a band reads between two turns of the event loop. */
const yieldEvery = 8192;

export const duplicateContent: SiteCheckDefinition = {
  id: "duplicate-content",
  category: "seo",
  importance: "medium",
  title: "Duplicate content",
  description: "No two indexable pages have the same or nearly the same visible text (90 % similar or more).",
  howToFix: "Merge pages with the same text, or name one of them as canonical on the others.",
  async run(site) {
    // The minhashes in chunks of 1,024 pages (256 KiB each): never copied as they grow.
    const chunks: Uint32Array[] = [];
    // The first 64 bits of each text's SHA-256, as two 32-bit halves: equal texts, equal halves.
    const hashChunks: Uint32Array[] = [];
    let count = 0;
    for await (const batch of site.pages("texts")) {
      for (const page of batch) {
        if (page.text === null) continue;
        const at = count++;
        if (at % chunkPages === 0) {
          chunks.push(new Uint32Array(chunkPages * hashes));
          hashChunks.push(new Uint32Array(chunkPages * 2));
        }
        (chunks[chunks.length - 1] as Uint32Array).set(
          page.text.minhash.slice(0, hashes),
          (at % chunkPages) * hashes,
        );
        const halves = hashChunks[hashChunks.length - 1] as Uint32Array;
        halves[(at % chunkPages) * 2] = Number.parseInt(page.text.hash.slice(0, 8), 16);
        halves[(at % chunkPages) * 2 + 1] = Number.parseInt(page.text.hash.slice(8, 16), 16);
      }
    }
    const valueAt = (page: number, slot: number) =>
      (chunks[page >>> chunkShift] as Uint32Array)[(page & (chunkPages - 1)) * hashes + slot] as number;
    const hashHalf = (page: number, half: number) =>
      (hashChunks[page >>> chunkShift] as Uint32Array)[(page & (chunkPages - 1)) * 2 + half] as number;
    const similar = (a: number, b: number) => {
      if (hashHalf(a, 0) === hashHalf(b, 0) && hashHalf(a, 1) === hashHalf(b, 1)) return true;
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
    const sameBand = (a: number, b: number, from: number) =>
      valueAt(a, from) === valueAt(b, from) &&
      valueAt(a, from + 1) === valueAt(b, from + 1) &&
      valueAt(a, from + 2) === valueAt(b, from + 2) &&
      valueAt(a, from + 3) === valueAt(b, from + 3);
    for (let band = 0; band < bands; band++) {
      // A bucket's first page by a 30-bit hash of the band (small integers: no string per page); the rare band
      // whose hash another band's bucket holds has its bucket by its values written out.
      const firsts = new Map<number, number>();
      const collided = new Map<string, number>();
      const from = band * rows;
      for (let index = 0; index < count; index++) {
        if (index % yieldEvery === yieldEvery - 1) await nextTurn();
        const hash = bandHash(
          valueAt(index, from),
          valueAt(index, from + 1),
          valueAt(index, from + 2),
          valueAt(index, from + 3),
        );
        let first = firsts.get(hash);
        if (first === undefined) {
          firsts.set(hash, index);
          continue;
        }
        if (!sameBand(first, index, from)) {
          const key = `${valueAt(index, from)},${valueAt(index, from + 1)},${valueAt(index, from + 2)},${valueAt(index, from + 3)}`;
          first = collided.get(key);
          if (first === undefined) {
            collided.set(key, index);
            continue;
          }
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
    // Each group's size at its root, then its members' URLs from a second reading, in the first one's order.
    const sizes = new Int32Array(count);
    for (let index = 0; index < count; index++) {
      const root = find(index);
      sizes[root] = (sizes[root] as number) + 1;
    }
    const groups = new Map<number, string[]>();
    if (sizes.some((size) => size > 1)) {
      let index = 0;
      for await (const batch of site.pages("texts")) {
        for (const page of batch) {
          if (page.text === null) continue;
          const root = find(index++);
          if ((sizes[root] as number) < 2) continue;
          const group = groups.get(root);
          if (group) group.push(page.url);
          else groups.set(root, [page.url]);
        }
      }
    }
    const findings = [...groups.values()]
      .filter((group) => group.length > 1)
      .sort((a, b) => b.length - a.length)
      .map((group) => ({ pages: group }));
    return issueOf(
      duplicateContent,
      findings,
      (count) =>
        `${plural(count, "group")} of indexable pages have the same or nearly the same text (≥ 90 %).`,
      (item) => groupMembers(item.pages),
    );
  },
};

/** A 30-bit hash of a band's four values (FNV-1a over them), a small integer for a map's key. */
function bandHash(a: number, b: number, c: number, d: number): number {
  let hash = 0x811c9dc5 | 0;
  hash = Math.imul(hash ^ a, 0x01000193);
  hash = Math.imul(hash ^ b, 0x01000193);
  hash = Math.imul(hash ^ c, 0x01000193);
  hash = Math.imul(hash ^ d, 0x01000193);
  return (hash ^ (hash >>> 30)) & 0x3fffffff;
}
