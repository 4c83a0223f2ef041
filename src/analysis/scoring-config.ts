/**
 * Every number that decides a score, in one place: importance weights, result bands, the cap of the gates (a
 * page no crawler may index, or failing https, title or viewport), and each check's thresholds. An operator overrides any of them with a JSON file
 * (PAGEGRADE_SCORING_FILE) holding the same shape, partially.
 */

export const defaultScoring = {
  weights: { high: 10, medium: 5, low: 1 },
  /** Lowest score of each result: good ≥ good, decent ≥ decent, bad below. */
  bands: { good: 80, decent: 50 },
  /**
   * Highest score a page held by a gate can reach: a page no major crawler may index, or one that fails `https`,
   * `title` or `viewport` (score.ts).
   */
  notIndexableCap: 79,
  thresholds: {
    titleLength: { min: 10, max: 60 },
    metaDescriptionLength: { min: 50, max: 160 },
    maxLinks: 150,
    urlMaxQueryParameters: 2,
    urlMaxLength: 100,
    serverResponseMs: { pass: 600, warn: 1_500 },
    loadTimeMs: { pass: 2_000, warn: 4_000 },
    pageSizeBytes: { pass: 300_000, warn: 1_000_000 },
    httpRequests: { pass: 50, warn: 100 },
    domElements: { pass: 1_500, warn: 3_000 },
    redirects: { pass: 1, warn: 2 },
    hstsMinMaxAge: 31_536_000,
    compressionMinBytes: 1_024,
    inlineStyles: 10,
    contentWords: { pass: 300, warn: 100 },
    textHtmlRatio: 0.1,
    /** The lowest maximum-scale that still lets visitors zoom. */
    viewportMinMaximumScale: 2,
    /** Lab Web Vitals in rendered mode: Lighthouse's and Core Web Vitals' good / needs-improvement bands. */
    largestContentfulPaintMs: { pass: 2_500, warn: 4_000 },
    cumulativeLayoutShift: { pass: 0.1, warn: 0.25 },
    totalBlockingTimeMs: { pass: 200, warn: 600 },
    firstContentfulPaintMs: { pass: 1_800, warn: 3_000 },
    /** Text that scripts add is worth a warning from this many words, and this share of the rendered text. */
    scriptAddedText: { minWords: 50, minShare: 0.1 },
  },
};

export type Scoring = typeof defaultScoring;
export type Thresholds = Scoring["thresholds"];
export type Importance = keyof Scoring["weights"];

type DeepPartial<T> = { [K in keyof T]?: T[K] extends object ? DeepPartial<T[K]> : T[K] };
export type ScoringOverrides = DeepPartial<Scoring>;

/** Validates an overrides object against the shape of the defaults: known keys, non-negative numbers. */
export function parseScoringOverrides(input: unknown): ScoringOverrides {
  checkShape(input, defaultScoring, "");
  return input as ScoringOverrides;
}

function checkShape(input: unknown, template: unknown, path: string): void {
  if (typeof template === "number") {
    if (typeof input !== "number" || !Number.isFinite(input) || input < 0) {
      throw new Error(`${path} must be a non-negative number`);
    }
    return;
  }
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    throw new Error(`${path || "the file"} must be an object`);
  }
  const known = template as Record<string, unknown>;
  for (const [key, value] of Object.entries(input)) {
    const where = path ? `${path}.${key}` : key;
    if (!(key in known)) throw new Error(`unknown setting "${where}"`);
    checkShape(value, known[key], where);
  }
}

/** The defaults with the overrides laid over them. */
export function resolveScoring(overrides: ScoringOverrides = {}): Scoring {
  return merge(defaultScoring, overrides) as Scoring;
}

function merge(base: unknown, over: unknown): unknown {
  if (typeof base !== "object" || base === null) return over ?? base;
  const result: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  for (const [key, value] of Object.entries((over as Record<string, unknown>) ?? {})) {
    result[key] = merge((base as Record<string, unknown>)[key], value);
  }
  return result;
}
