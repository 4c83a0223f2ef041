/**
 * The errors of rendered mode, in a module of their own so that code which only needs to recognise them (the
 * services, the job, the command line) does not load playwright-core.
 */

/**
 * Chromium cannot run here: it is missing, or it refused to start (as root with its sandbox on, a bad
 * executable, a crash on start). The API answers rendered requests with 422 on `mode` and PDFs with 503,
 * each saying the problem.
 */
export class ChromiumUnavailable extends Error {
  override readonly name = "ChromiumUnavailable";

  /** problem: what stops Chromium, naming the setting to change ("there is no Chromium at …"). */
  constructor(readonly problem: string) {
    super(`Rendered mode is unavailable: ${problem}.`);
  }

  static missing(): ChromiumUnavailable {
    return new ChromiumUnavailable("there is no Chromium where PAGEGRADE_CHROMIUM_PATH points");
  }
}

/** The page took the browser down with it (a renderer crash, usually memory). */
export class RenderFailure extends Error {
  override readonly name = "RenderFailure";
  readonly reason = "page-crashed";

  constructor() {
    super("The page crashed the browser tab that rendered it (it may use too much memory).");
  }
}
