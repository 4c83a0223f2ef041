/**
 * The size bounds of a check result, so that a page's text (a 5 MiB meta description, a canonical URL or a
 * data: URL the size of the page) cannot make a results document that is megabytes to store, send and show.
 * Every string of a result (its message, its value and the values inside it, each evidence field) is cut at
 * `maxResultTextLength` characters, ending in "…"; a list inside a value keeps at most `maxValueEntries`
 * entries and, after its first, only those that fit in `maxEvidenceTextLength` characters of the value's text
 * (a page of 100,000 distinct canonical links made a value of 100,000 URLs); a check keeps at most
 * `maxEvidenceItems` evidence items and, after its first, only those that fit in `maxEvidenceTextLength`
 * characters of text in all; the items left
 * out are counted in `truncated`. No page of the corpus comes near either bound (its longest string is a
 * 61,523-character data: URL, its largest evidence of one check 62,789 characters).
 */
import type { EvidenceItem } from "./checks/check.js";

/** The longest string a check result keeps (message, value, evidence field), in UTF-16 code units. */
export const maxResultTextLength = 65_536;

/** Entries a list inside a result's value keeps (the distinct canonical URLs, robots.txt's sitemaps, …). */
export const maxValueEntries = 50;

/** Evidence items a check keeps. */
export const maxEvidenceItems = 50;

/** The text (all string fields together) of one check's evidence items, past its first item. */
export const maxEvidenceTextLength = 65_536;

/** `text`, or its first `length - 1` characters and "…" when longer than `length`. */
export function boundText(text: string, length = maxResultTextLength): string {
  if (text.length <= length) return text;
  let end = Math.max(0, length - 1);
  // Not between the two halves of a surrogate pair.
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end)}…`;
}

/**
 * A result's value with every string in it (at any depth) bounded, and every list inside it its first entries:
 * at most `maxValueEntries`, and after its first only those that fit in `maxEvidenceTextLength` characters of the
 * value's text in all (as evidence items do); anything else as it is.
 */
export function boundValue(value: unknown): unknown {
  return boundWithin(value, { left: maxEvidenceTextLength });
}

function boundWithin(value: unknown, text: { left: number }): unknown {
  if (typeof value === "string") {
    const bounded = boundText(value);
    text.left -= bounded.length;
    return bounded;
  }
  if (Array.isArray(value)) {
    const kept: unknown[] = [];
    for (const entry of value.slice(0, maxValueEntries)) {
      const before = text.left;
      const bounded = boundWithin(entry, text);
      if (kept.length > 0 && text.left < 0 && text.left < before) {
        text.left = before;
        break;
      }
      kept.push(bounded);
    }
    return kept;
  }
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, boundWithin(inner, text)]));
  }
  return value;
}

/** The evidence a check keeps, and how many items it leaves out. */
export function boundEvidence(items: readonly EvidenceItem[]): {
  items: EvidenceItem[];
  truncated: number;
} {
  const kept: EvidenceItem[] = [];
  let text = 0;
  for (const item of items.slice(0, maxEvidenceItems)) {
    const bounded: EvidenceItem = {};
    let size = 0;
    for (const [key, field] of Object.entries(item)) {
      const value = typeof field === "string" ? boundText(field) : field;
      if (typeof value === "string") size += value.length;
      bounded[key] = value;
    }
    if (kept.length > 0 && text + size > maxEvidenceTextLength) break;
    text += size;
    kept.push(bounded);
  }
  return { items: kept, truncated: items.length - kept.length };
}
