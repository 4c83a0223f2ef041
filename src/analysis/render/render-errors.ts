/**
 * The errors of rendered mode, in a module of their own so that code which only needs to recognise them (the
 * services, the job, the command line) does not load playwright-core.
 */

/** The server has no Chromium at the configured path; the API answers rendered requests with 422. */
export class ChromiumUnavailable extends Error {
  override readonly name = "ChromiumUnavailable";

  constructor(readonly executablePath: string) {
    super(
      `Rendered mode needs Chromium, which this server does not have at ${executablePath} (set PAGEGRADE_CHROMIUM_PATH).`,
    );
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
