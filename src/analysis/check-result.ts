/**
 * A check's stored result, the shape every report's `results` holds per check id: its verdict, message, value
 * and evidence (bounded by result-bounds.ts), and what the report's size budget cut from it (report-budget.ts).
 */
import type { Category, CheckImportance, CheckStatus, EvidenceItem } from "./checks/check.js";

export interface CheckResult {
  category: Category;
  importance: CheckImportance;
  status: CheckStatus;
  /** true for pass, false for warn and fail, null otherwise. */
  passed: boolean | null;
  value: unknown;
  message: string;
  details?: { items: EvidenceItem[]; truncated: number };
  /** What the report's size budget cut from this result (report-budget.ts); absent when nothing. */
  cut?: ResultCut;
}

export type CheckResults = Record<string, CheckResult>;

/** What the report's budget cut from one check result. */
export interface ResultCut {
  reason: "report-size";
  evidence_items: number;
  message: boolean;
  value: boolean;
}
