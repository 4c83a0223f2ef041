/**
 * The fingerprint of a page's visible text for duplicate detection (site-facts.ts documents it): the SHA-256 of
 * the text with whitespace collapsed and lower-cased, and 64 minimum hashes over its 5-word shingles (hash i of
 * a shingle = the 32-bit FNV-1a of its words joined by single spaces, XOR seed i), so the share of equal
 * positions between two fingerprints estimates the Jaccard similarity of the two texts' shingle sets.
 *
 * The normal text's words are already separated by single spaces, so each shingle is a stretch of it: its hash
 * is taken in place, one pass per shingle, with no string built. The minimum over the shingles of hash XOR seed
 * is found for each seed in the sorted hashes, a bit at a time from the highest: the hashes sharing the bits
 * chosen so far are a run of the sorted array, and the next bit of the minimum is 0 wherever some of them have
 * the seed's bit there (a binary search splits the run). That is a few dozen steps per seed, not one per
 * shingle and seed.
 */
import { createHash } from "node:crypto";

const hashes = 64;
const shingleWords = 5;
/** Fixed seeds (a simple LCG from a constant), so fingerprints stay comparable across runs and versions. */
const seeds = Array.from({ length: hashes }, (_, index) => ((index + 1) * 2654435761) >>> 0);

export interface TextFingerprint {
  hash: string;
  minhash: number[];
}

export function textFingerprint(text: string): TextFingerprint | null {
  const normal = text.replace(/\s+/g, " ").trim().toLowerCase();
  if (normal === "") return null;
  const wordStarts = startsOfWords(normal);
  const words = wordStarts.length - 1;
  const count = Math.max(1, words - shingleWords + 1);
  const shingles = new Uint32Array(count);
  for (let start = 0; start < count; start++) {
    // The shingle's words run from the start of word `start` to the space before word `start + 5` (or the end).
    const end = (wordStarts[Math.min(words, start + shingleWords)] as number) - 1;
    shingles[start] = fnv1a(normal, wordStarts[start] as number, end);
  }
  shingles.sort();
  const minhash = seeds.map((seed) => lowestXor(shingles, seed));
  return { hash: createHash("sha256").update(normal).digest("hex"), minhash };
}

/** The least `value XOR seed` over the values of `sorted` (ascending, not empty), as an unsigned integer. */
function lowestXor(sorted: Uint32Array, seed: number): number {
  let low = 0;
  let high = sorted.length; // the run [low, high) shares every bit above `bit`
  for (let bit = 31; bit >= 0 && high - low > 1; bit--) {
    // Where the run's values with this bit set begin: they follow those without it.
    const withBit = ((((sorted[low] as number) >>> bit) | 1) << bit) >>> 0;
    let split = low;
    let end = high;
    while (split < end) {
      const middle = (split + end) >>> 1;
      if ((sorted[middle] as number) < withBit) split = middle + 1;
      else end = middle;
    }
    // The minimum has a 0 here if some of the run have the seed's bit: keep those.
    if ((seed >>> bit) & 1) {
      if (split < high) low = split;
    } else if (split > low) high = split;
  }
  return ((sorted[low] as number) ^ seed) >>> 0;
}

/** The estimated Jaccard similarity of two fingerprints' texts (1 for identical texts). */
export function similarity(a: TextFingerprint, b: TextFingerprint): number {
  if (a.hash === b.hash) return 1;
  let equal = 0;
  for (let index = 0; index < hashes; index++) if (a.minhash[index] === b.minhash[index]) equal++;
  return equal / hashes;
}

/**
 * Where each word of `normal` (words separated by single spaces) starts, followed by one past the end of the
 * text plus one, so that word i spans from starts[i] to starts[i + 1] - 1 for every word, the last included.
 */
function startsOfWords(normal: string): Int32Array {
  let spaces = 0;
  for (let index = normal.indexOf(" "); index !== -1; index = normal.indexOf(" ", index + 1)) spaces++;
  const starts = new Int32Array(spaces + 2);
  let word = 1;
  for (let index = normal.indexOf(" "); index !== -1; index = normal.indexOf(" ", index + 1)) {
    starts[word++] = index + 1;
  }
  starts[word] = normal.length + 1;
  return starts;
}

/** The 32-bit FNV-1a of text[from, to) as UTF-16 code units. */
function fnv1a(text: string, from: number, to: number): number {
  let hash = 0x811c9dc5 | 0;
  for (let index = from; index < to; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
