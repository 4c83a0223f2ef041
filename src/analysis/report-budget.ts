/**
 * The size budget of a report's results as a whole. Each check result is bounded on its own (result-bounds.ts),
 * but 118 of them at their bounds would make a results document of hundreds of megabytes, and every list of
 * reports carries it. A results document whose JSON is over `maxResultsBytes` is cut until it fits, the
 * verdicts (status, passed) and so the scores never touched:
 *
 * 1. Evidence first: every check keeps its evidence items up to one fair share of what the budget leaves (a
 *    check under the share keeps all of its own; the share is what is left, split evenly among the others), its
 *    leading items while they fit.
 * 2. Only when messages and values alone are over the budget: every check's evidence goes, and each message and
 *    value over a fair share is cut to it (strings ending in "…", lists their leading entries).
 * 3. A value still over its share (its keys and numbers alone) becomes null.
 *
 * A check cut here says so in `cut`: `{"reason": "report-size", "evidence_items", "message", "value"}` (items
 * left out, also counted in `details.truncated`; whether the message or value was shortened). A results document
 * within the budget is left exactly as it is.
 */
import type { CheckResult, CheckResults, ResultCut } from "./check-result.js";
import { boundText } from "./result-bounds.js";

/** The most bytes (UTF-8, as JSON) a report's results document holds. */
export const maxResultsBytes = 524_288;

/** Room kept for each check's `cut` marker, so that adding it never takes the document over the budget. */
const markerBytes = 96;

/** Bytes one character may cost in JSON at worst (a control character, `\u0001`). */
const worstCharacterBytes = 6;

const bytesOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value) ?? "null");

/** `results` as they are when within `maxResultsBytes`, else cut to fit (see above). */
export function withinReportBudget(results: CheckResults, budget = maxResultsBytes): CheckResults {
  const size = bytesOf(results);
  if (size <= budget) return results;
  const ids = Object.keys(results);
  const room = budget - ids.length * markerBytes;
  const cuts = new Map<string, ResultCut>();
  const cutOf = (id: string) => {
    const cut = cuts.get(id) ?? { reason: "report-size", evidence_items: 0, message: false, value: false };
    cuts.set(id, cut);
    return cut;
  };
  const cut: CheckResults = { ...results };

  const evidenceBytes = ids.map((id) => bytesOf(cut[id]?.details?.items ?? []));
  const withoutEvidence = size - evidenceBytes.reduce((sum, bytes) => sum + bytes, 0);
  const evidenceShare = fairShare(evidenceBytes, Math.max(0, room - withoutEvidence));
  ids.forEach((id, index) => {
    const result = cut[id] as CheckResult;
    if (!result.details || (evidenceBytes[index] as number) <= evidenceShare) return;
    const kept = leadingWithin(result.details.items, evidenceShare);
    const left = result.details.items.length - kept.length;
    cut[id] = { ...result, details: { items: kept, truncated: result.details.truncated + left } };
    cutOf(id).evidence_items = left;
  });

  const evidenceCutSize = bytesOf(cut);
  if (evidenceCutSize > room) {
    const textBytes = ids.map((id) => {
      const result = cut[id] as CheckResult;
      return bytesOf(result.message) + bytesOf(result.value);
    });
    const fixed = evidenceCutSize - textBytes.reduce((sum, bytes) => sum + bytes, 0);
    const textShare = fairShare(textBytes, Math.max(0, room - fixed));
    const half = textShare / 2;
    const characters = Math.max(1, Math.floor(half / worstCharacterBytes) - 1);
    ids.forEach((id, index) => {
      const result = cut[id] as CheckResult;
      if ((textBytes[index] as number) <= textShare) return;
      const message = boundText(result.message, characters);
      // A value's text past its structure (keys, numbers, a string's "…"); an entry added costs its quotes and comma.
      const structure = bytesOf(valueWithin(result.value, { left: 0 }));
      const valueCharacters = Math.floor((half - structure) / (worstCharacterBytes + 3));
      let value = valueWithin(result.value, { left: valueCharacters });
      if (bytesOf(value) > half) value = null;
      cut[id] = { ...result, message, value };
      const marker = cutOf(id);
      marker.message = message !== result.message;
      marker.value = bytesOf(value) !== bytesOf(result.value);
    });
  }

  for (const [id, marker] of cuts) cut[id] = { ...(cut[id] as CheckResult), cut: marker };
  return cut;
}

/**
 * The largest share such that every size over it cut to it, and every size under it kept, fits in `room`
 * (water-filling: the smaller sizes are kept whole, the rest split what is left evenly).
 */
export function fairShare(sizes: readonly number[], room: number): number {
  const sorted = [...sizes].sort((a, b) => a - b);
  let left = room;
  for (let index = 0; index < sorted.length; index++) {
    const even = Math.floor(left / (sorted.length - index));
    const size = sorted[index] as number;
    if (size > even) return even;
    left -= size;
  }
  return Number.POSITIVE_INFINITY;
}

/** The leading entries of `items` whose JSON, as a list, fits in `bytes`. */
function leadingWithin<Item>(items: readonly Item[], bytes: number): Item[] {
  const kept: Item[] = [];
  let size = 2; // []
  for (const item of items) {
    size += bytesOf(item) + (kept.length > 0 ? 1 : 0);
    if (size > bytes) break;
    kept.push(item);
  }
  return kept;
}

/** A value whose strings hold at most `text.left` characters in all; a list stops where the text runs out. */
function valueWithin(value: unknown, text: { left: number }): unknown {
  if (typeof value === "string") {
    const kept = boundText(value, Math.max(1, text.left));
    text.left -= kept.length;
    return kept;
  }
  if (Array.isArray(value)) {
    const kept: unknown[] = [];
    for (const entry of value) {
      if (text.left <= 0) break;
      kept.push(valueWithin(entry, text));
    }
    return kept;
  }
  if (value !== null && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, valueWithin(inner, text)]));
  return value;
}
