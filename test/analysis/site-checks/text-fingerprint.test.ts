/**
 * The text fingerprint is stored with each crawled page and compared across crawls, so its values must never
 * change: pinned values for a fixed text, and the fast implementation against the plain one (each shingle's
 * words joined into a string and hashed) on random texts of words, mixed whitespace and non-ASCII letters.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { similarity, textFingerprint } from "../../../src/analysis/site-checks/text-fingerprint.js";

/** The definition, spelled out: 64 seeds, 5-word shingles joined by spaces, FNV-1a XOR seed, minimum each. */
function plainFingerprint(text: string): number[] | null {
  const normal = text.replace(/\s+/g, " ").trim().toLowerCase();
  if (normal === "") return null;
  const seeds = Array.from({ length: 64 }, (_, index) => ((index + 1) * 2654435761) >>> 0);
  const words = normal.split(" ");
  const minhash = new Array<number>(64).fill(0xffffffff);
  for (let start = 0; start < Math.max(1, words.length - 4); start++) {
    const shingle = words.slice(start, start + 5).join(" ");
    let hash = 0x811c9dc5;
    for (let index = 0; index < shingle.length; index++) {
      hash ^= shingle.charCodeAt(index);
      hash = Math.imul(hash, 0x01000193);
    }
    for (let index = 0; index < 64; index++) {
      const value = ((hash >>> 0) ^ (seeds[index] as number)) >>> 0;
      if (value < (minhash[index] as number)) minhash[index] = value;
    }
  }
  return minhash;
}

describe("textFingerprint", () => {
  it("keeps the values stored by earlier versions", () => {
    const fingerprint = textFingerprint(
      "The quick brown fox jumps over the lazy dog.\n  It barked; the FOX ran\taway into the woods.",
    );
    expect(fingerprint?.hash).toBe("555d37d87323fffa191f145f5e9c75e7b812906bc774cd4f0199f46cf8976030");
    expect(fingerprint?.minhash.slice(0, 8)).toEqual([
      87729412, 48349042, 121572581, 356689566, 230085665, 246980434, 41708356, 657395479,
    ]);
    expect(fingerprint?.minhash.slice(56)).toEqual([
      81089657, 84472812, 458640273, 262353192, 147044953, 9912397, 843027321, 33343303,
    ]);
    // Fewer than five words: one shingle, the whole text.
    expect(textFingerprint("Hello  World")?.minhash.slice(0, 4)).toEqual([
      1270629910, 3924151493, 254628532, 2908150115,
    ]);
  });

  it("has no fingerprint for a text without words", () => {
    expect(textFingerprint("")).toBeNull();
    expect(textFingerprint(" \n\t\u00a0 ")).toBeNull();
  });

  it("gives the same minimum hashes as the plain definition", () => {
    const word = fc.stringMatching(/^[a-zA-Zéİß0-9.,;]{1,8}$/);
    const gap = fc.constantFrom(" ", "  ", "\n", "\t ", "\u00a0", "\u2003");
    const text = fc
      .array(fc.tuple(word, gap), { maxLength: 40 })
      .map((parts) => parts.map(([w, g]) => w + g).join(""));
    fc.assert(
      fc.property(text, fc.constantFrom("", " ", "\n"), (body, edge) => {
        const input = edge + body + edge;
        expect(textFingerprint(input)?.minhash ?? null).toEqual(plainFingerprint(input));
      }),
      { numRuns: 500 },
    );
  });

  it("estimates similarity from equal positions", () => {
    const a = textFingerprint("one two three four five six seven eight nine ten");
    const b = textFingerprint("one two three four five six seven eight nine eleven");
    if (!a || !b) throw new Error("expected fingerprints");
    expect(similarity(a, a)).toBe(1);
    expect(similarity(a, b)).toBeGreaterThan(0.3);
    expect(similarity(a, b)).toBeLessThan(1);
  });
});
