/**
 * The fingerprint of a page's visible text for duplicate detection (site-facts.ts documents it): the SHA-256 of
 * the text with whitespace collapsed and lower-cased, and 64 minimum hashes over its 5-word shingles (hash i of
 * a shingle = its 32-bit FNV-1a XOR seed i), so the share of equal positions between two fingerprints estimates
 * the Jaccard similarity of the two texts' shingle sets.
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
  const words = normal.split(" ");
  const minhash = new Array<number>(hashes).fill(0xffffffff);
  const count = Math.max(1, words.length - shingleWords + 1);
  for (let start = 0; start < count; start++) {
    const shingle = fnv1a(words.slice(start, start + shingleWords).join(" "));
    for (let index = 0; index < hashes; index++) {
      const value = (shingle ^ (seeds[index] as number)) >>> 0;
      if (value < (minhash[index] as number)) minhash[index] = value;
    }
  }
  return { hash: createHash("sha256").update(normal).digest("hex"), minhash };
}

/** The estimated Jaccard similarity of two fingerprints' texts (1 for identical texts). */
export function similarity(a: TextFingerprint, b: TextFingerprint): number {
  if (a.hash === b.hash) return 1;
  let equal = 0;
  for (let index = 0; index < hashes; index++) if (a.minhash[index] === b.minhash[index]) equal++;
  return equal / hashes;
}

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
