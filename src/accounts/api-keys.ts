/**
 * API keys: a recognisable prefix and 256 random bits ("pgk_…"), stored only as a SHA-256 digest. A digest
 * lookup compares no secret byte by byte, so it leaks nothing through timing.
 */
import { hash, randomBytes } from "node:crypto";

export const keyPrefix = "pgk_";
const keyPattern = /^pgk_[A-Za-z0-9_-]{43}$/;

export interface NewApiKey {
  /** The whole key: shown once, never stored. */
  key: string;
  digest: string;
  /** What may be shown later: the start and the last 4 characters. */
  prefix: string;
  lastFour: string;
}

export function generateApiKey(): NewApiKey {
  const key = `${keyPrefix}${randomBytes(32).toString("base64url")}`;
  return { key, digest: digestOf(key), prefix: key.slice(0, 8), lastFour: key.slice(-4) };
}

/** The key's SHA-256, hex: one-shot `hash`, several times cheaper than a Hash object per API request. */
export function digestOf(key: string): string {
  return hash("sha256", key, "hex");
}

/** Whether a string has the shape of a key (cheap check before any lookup). */
export function looksLikeApiKey(value: string): boolean {
  return keyPattern.test(value);
}

/** How a key is shown after creation: "pgk_AbCd…wxyz". */
export function maskedKey(prefix: string, lastFour: string): string {
  return `${prefix}…${lastFour}`;
}
