/**
 * The errors the services raise and every face reports (the API and the web pages turn them into responses, the
 * command line into messages): they live at the bottom so any layer may throw or catch them.
 */

/** Input that breaks a rule; messages per field, written for people. */
export class ValidationFailed extends Error {
  override readonly name = "ValidationFailed";

  constructor(readonly errors: Record<string, string[]>) {
    super(Object.values(errors)[0]?.[0] ?? "The given data was invalid.");
  }

  static of(field: string, message: string): ValidationFailed {
    return new ValidationFailed({ [field]: [message] });
  }
}

/**
 * The page at the URL could not be analysed (a FetchFailure, or a crash of the browser tab that rendered it);
 * nothing was stored or changed. `reason` is a stable code, `message` ours.
 */
export class AnalysisFailed extends Error {
  override readonly name = "AnalysisFailed";

  constructor(readonly failure: { reason: string; message: string }) {
    super(failure.message);
  }
}

/** Every analysis slot of this process is busy; try again after `retryAfterSeconds`. */
export class CapacityExceeded extends Error {
  override readonly name = "CapacityExceeded";

  constructor(readonly retryAfterSeconds: number) {
    super("Analysis capacity is full; try again shortly.");
  }
}
