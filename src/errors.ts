/**
 * The errors the services raise and every face reports (the API and the web pages turn them into responses, the
 * command line into messages): they live at the bottom so any layer may throw or catch them. A `DomainError`
 * carries a stable `code` and the HTTP status it stands for; error-handling.ts maps them once for the API
 * (problem JSON) and the web (a page), so no handler catches one to translate it.
 */

/** A rule of the domain broken: a stable code (never shown as text) and the HTTP status it answers with. */
export abstract class DomainError extends Error {
  abstract readonly code: string;
  abstract readonly status: number;
}

/**
 * The resource named does not exist, or is not in the caller's workspace: both answer the same 404 (another
 * workspace's resource is never told apart from a missing one).
 */
export class ResourceNotFound extends DomainError {
  override readonly name = "ResourceNotFound";
  readonly code = "not_found";
  readonly status = 404;

  constructor() {
    super("Resource not found.");
  }
}

/**
 * The caller's role in the workspace is below what they asked for (a viewer's write, an editor's management of
 * the team): a 403 naming the role needed (`owner`, `editor` or `viewer`).
 */
export class AccessDenied extends DomainError {
  override readonly name = "AccessDenied";
  readonly code = "forbidden";
  readonly status = 403;

  constructor(readonly roleNeeded: "owner" | "editor" | "viewer" = "editor") {
    super(`This needs the ${roleNeeded} role in the team.`);
  }
}

/** The request conflicts with the resource's state (a finished crawl cancelled, an unfinished one compared). */
export abstract class Conflict extends DomainError {
  readonly status = 409;
}

/** Input that breaks a rule; messages per field, written for people. */
export class ValidationFailed extends DomainError {
  override readonly name = "ValidationFailed";
  readonly code = "validation_failed";
  readonly status = 422;

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
export class AnalysisFailed extends DomainError {
  override readonly name = "AnalysisFailed";
  readonly code = "analysis_failed";
  readonly status = 422;

  constructor(readonly failure: { reason: string; message: string }) {
    super(failure.message);
  }
}

/** Every analysis slot of this process is busy; try again after `retryAfterSeconds`. */
export class CapacityExceeded extends DomainError {
  override readonly name = "CapacityExceeded";
  readonly code = "capacity_exceeded";
  readonly status = 503;

  constructor(readonly retryAfterSeconds: number) {
    super("Analysis capacity is full; try again shortly.");
  }
}

/** Wrong arguments to a command (the command line prints it with the usage text, exit code 2; the worker too). */
export class UsageError extends DomainError {
  override readonly name = "UsageError";
  readonly code = "usage";
  readonly status = 400;
}
