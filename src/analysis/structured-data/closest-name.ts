/**
 * The known name closest to a misspelt one (datePublised → datePublished), by edit distance with a bound, for
 * the "did you mean" of unknown schema.org types and properties. Work is bounded: names longer than
 * `maxNameLength` are not compared, and the distance table is one row of at most that length.
 */
const maxNameLength = 64;

/** The closest candidate within a distance of a third of the name's length (at most 3), or null. */
export function closestName(name: string, candidates: Iterable<string>): string | null {
  if (name.length === 0 || name.length > maxNameLength) return null;
  const lowered = name.toLowerCase();
  const limit = Math.min(3, Math.max(1, Math.floor(name.length / 3)));
  let best: string | null = null;
  let bestDistance = limit + 1;
  for (const candidate of candidates) {
    if (candidate.length > maxNameLength || Math.abs(candidate.length - name.length) >= bestDistance)
      continue;
    // A difference of case alone is the closest there is.
    const distance = candidate.toLowerCase() === lowered ? 0 : editDistance(lowered, candidate.toLowerCase());
    if (distance < bestDistance || (distance === bestDistance && best !== null && candidate < best)) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** Levenshtein distance with adjacent transpositions counted as one edit (optimal string alignment). */
function editDistance(a: string, b: string): number {
  let before = new Array<number>(b.length + 1).fill(0);
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  let current = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        value = Math.min(value, (before[j - 2] as number) + 1);
      current[j] = value;
    }
    [before, previous, current] = [previous, current, before];
  }
  return previous[b.length] as number;
}
