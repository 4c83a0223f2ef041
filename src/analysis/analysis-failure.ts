/**
 * Why a page could not be analysed, as users are told it: the reason code and our message for each failure the
 * Analyzer throws for the page itself (it cannot be fetched, its tab crashed, Chromium cannot run here). Anything
 * else is not the page's failure but the service's, and is left to the caller.
 */
import { FetchFailure, type FetchFailureReason } from "./fetch/fetch-failure.js";
import { ChromiumUnavailable, RenderFailure } from "./render/render-errors.js";

export type AnalysisFailureReason = FetchFailureReason | RenderFailure["reason"] | "rendering-unavailable";

export interface AnalysisFailure {
  reason: AnalysisFailureReason;
  message: string;
}

/** The failure an error of the Analyzer stands for; undefined for any other error. */
export function analysisFailureOf(error: unknown): AnalysisFailure | undefined {
  if (error instanceof FetchFailure || error instanceof RenderFailure) {
    return { reason: error.reason, message: error.message };
  }
  // A process without Chromium (the API that accepted the mode has it): the analysis fails, saying why.
  if (error instanceof ChromiumUnavailable)
    return { reason: "rendering-unavailable", message: error.message };
  return undefined;
}
