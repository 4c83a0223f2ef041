/**
 * What a form says when an analysis it asked for (a new report, a re-run) cannot run: the rule or the page's
 * failure as the API words it, or that the service is full. Any other error is not the form's to explain.
 */
import { AnalysisFailed, CapacityExceeded, ValidationFailed } from "../errors.js";

/** The message for the form, or null for an error that is not an analysis refusal. */
export function analysisFailureMessage(error: unknown): string | null {
  if (error instanceof ValidationFailed || error instanceof AnalysisFailed) return error.message;
  if (error instanceof CapacityExceeded)
    return "Too many analyses are running right now; try again in a few seconds.";
  return null;
}
