/**
 * The fingerprint of a page's visible text for duplicate detection (site-facts.ts documents it): the SHA-256 of
 * the text with whitespace collapsed and lower-cased, and 64 minimum hashes over its 5-word shingles (hash i of
 * a shingle = the 32-bit FNV-1a of its words joined by single spaces, XOR seed i), so the share of equal
 * positions between two fingerprints estimates the Jaccard similarity of the two texts' shingle sets.
 *
 * The normal text's words are already separated by single spaces, so each shingle is a stretch of it: its hash
 * is taken in place, one pass per shingle, with no string built. The minimum runs over 32-bit integers with
 * the sign bit flipped (a signed comparison of those orders them as unsigned), so it stays in integer arithmetic.
 */
import { createHash } from "node:crypto";

const hashes = 64;
const shingleWords = 5;
/** Fixed seeds (a simple LCG from a constant), so fingerprints stay comparable across runs and versions. */
const seeds = Array.from({ length: hashes }, (_, index) => ((index + 1) * 2654435761) >>> 0);
const signBit = 0x80000000;
/** The seeds with the sign bit flipped, as signed 32-bit integers (see the header). */
const flippedSeeds = Int32Array.from(seeds, (seed) => seed ^ signBit);

export interface TextFingerprint {
  hash: string;
  minhash: number[];
}

export function textFingerprint(text: string): TextFingerprint | null {
  const normal = text.replace(/\s+/g, " ").trim().toLowerCase();
  if (normal === "") return null;
  const wordStarts = startsOfWords(normal);
  const words = wordStarts.length - 1;
  const lowest = new Int32Array(hashes).fill(0x7fffffff); // 0xffffffff with the sign bit flipped
  const count = Math.max(1, words - shingleWords + 1);
  for (let start = 0; start < count; start++) {
    // The shingle's words run from the start of word `start` to the space before word `start + 5` (or the end).
    const end = (wordStarts[Math.min(words, start + shingleWords)] as number) - 1;
    const shingle = fnv1a(normal, wordStarts[start] as number, end);
    for (let index = 0; index < hashes; index++) {
      const value = shingle ^ (flippedSeeds[index] as number);
      if (value < (lowest[index] as number)) lowest[index] = value;
    }
  }
  const minhash = new Array<number>(hashes);
  for (let index = 0; index < hashes; index++) minhash[index] = ((lowest[index] as number) ^ signBit) >>> 0;
  return { hash: createHash("sha256").update(normal).digest("hex"), minhash };
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

/** The 32-bit FNV-1a of text[from, to) as UTF-16 code units, as a signed 32-bit integer. */
function fnv1a(text: string, from: number, to: number): number {
  let hash = 0x811c9dc5 | 0;
  for (let index = from; index < to; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash;
}
