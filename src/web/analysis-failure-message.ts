/**
 * What a form says when an analysis it asked for (a new report, a re-run) cannot run: the rule or the page's
 * failure as the API words it, or that the service is full. Any other error is not the form's to explain. A page
 * refused for its private address says how the operator can allow one (a test site on the local network): the
 * forms are only shown to signed-in users, who may well be that operator.
 */
import { AnalysisFailed, CapacityExceeded, ValidationFailed } from "../errors.js";

/** The message for the form, or null for an error that is not an analysis refusal. */
export function analysisFailureMessage(error: unknown): string | null {
  if (error instanceof AnalysisFailed && error.failure.reason === "private-address")
    return `${error.message} The service's operator can allow addresses for testing with the PAGEGRADE_ALLOWED_ADDRESSES setting (e.g. PAGEGRADE_ALLOWED_ADDRESSES=127.0.0.1,192.168.1.0/24).`;
  if (error instanceof ValidationFailed || error instanceof AnalysisFailed) return error.message;
  if (error instanceof CapacityExceeded)
    return "Too many analyses are running right now; try again in a few seconds.";
  return null;
}
