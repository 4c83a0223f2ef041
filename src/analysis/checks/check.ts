/**
 * The contract of a check: a pure function of the PageSnapshot (and the operator's thresholds) that returns
 * a status, the measured value, one specific sentence and the evidence. Its catalogue entry (title,
 * description, how to fix) lives beside it so the API can serve texts without hard-coding them.
 */
import type { Thresholds } from "../scoring-config.js";
import type { HostProbes, PageSnapshot } from "../snapshot.js";

/** The report's categories, in the order reports show them. */
export const categories = ["seo", "performance", "security", "miscellaneous", "accessibility"] as const;
export type Category = (typeof categories)[number];

/** Each category's name as reports show it. */
export const categoryNames: Record<string, string> = {
  seo: "SEO",
  performance: "Performance",
  security: "Security",
  miscellaneous: "Miscellaneous",
  accessibility: "Accessibility",
} satisfies Record<Category, string>;
export type CheckImportance = "high" | "medium" | "low" | "info";
export type CheckStatus = "pass" | "warn" | "fail" | "na" | "info" | "error";

/** One piece of evidence: the offending element, URL or header, as plain values. */
export type EvidenceItem = Record<string, string | number | boolean | null>;

export interface CheckOutcome {
  status: CheckStatus;
  value: unknown;
  message: string;
  items?: EvidenceItem[];
}

/**
 * A fact beyond the served document that a check cannot do without: `rendered` (what only a browser knows) or a
 * host probe by its snapshot name. The judge answers `na` or `error` when it is missing (`check-needs.ts`).
 */
export type CheckNeed = "rendered" | keyof HostProbes;

export interface CheckDefinition {
  /** Stable id, a kebab-case noun; also the file name. */
  id: string;
  category: Category;
  importance: CheckImportance;
  title: string;
  description: string;
  howToFix: string;
  /** What the check needs; when the snapshot lacks it the judge decides and `run` is not called. */
  needs?: readonly CheckNeed[];
  run(page: PageSnapshot, thresholds: Thresholds): CheckOutcome;
}

function make(status: CheckStatus) {
  return (message: string, value: unknown = null, items?: EvidenceItem[]): CheckOutcome =>
    items ? { status, value, message, items } : { status, value, message };
}

export const outcome = {
  pass: make("pass"),
  warn: make("warn"),
  fail: make("fail"),
  na: make("na"),
  info: make("info"),
  error: (message: string): CheckOutcome => ({ status: "error", value: null, message }),
};

/** "1 image" / "3 images". */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}

/** The verb form that agrees with a count: verb(1, "has", "have") → "has". */
export function verb(count: number, one: string, many: string): string {
  return count === 1 ? one : many;
}

/** "All 3 images" / "The only image", for messages about every item of a list. */
export function every(count: number, singular: string, pluralForm = `${singular}s`): string {
  return count === 1 ? `The only ${singular}` : `All ${count} ${pluralForm}`;
}

/** Quotes page text for a message, shortened. */
export function quote(text: string, max = 80): string {
  const shown = text.length > max ? `${text.slice(0, max - 1)}…` : text;
  return `"${shown}"`;
}
