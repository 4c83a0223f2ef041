/**
 * analysisFailureOf: every failure the Analyzer throws for a page becomes its reason code and our message; any
 * other error is left to the caller. The table is typed by the reason union, so a new reason without a row here
 * fails the type check.
 */
import { describe, expect, it } from "vitest";
import { type AnalysisFailureReason, analysisFailureOf } from "../../src/analysis/analysis-failure.js";
import { FetchFailure, failures } from "../../src/analysis/fetch/fetch-failure.js";
import { ChromiumUnavailable, RenderFailure } from "../../src/analysis/render/render-errors.js";

const thrown: Record<AnalysisFailureReason, Error> = {
  unresolvable: failures.unresolvable(),
  "private-address": failures.privateAddress(),
  timeout: failures.timeout(),
  "connection-failed": failures.connectionFailed(),
  "http-status": failures.httpStatus(503, 30),
  "too-large": failures.tooLarge(5 * 1024 * 1024),
  "not-html": failures.notHtml("application/pdf"),
  "too-many-redirects": failures.tooManyRedirects(10),
  redirect: failures.redirect(301, "https://example.com/next"),
  "invalid-response": failures.invalidResponse(),
  "too-complex": failures.tooComplex("time", 60_000),
  "page-crashed": new RenderFailure(),
  "rendering-unavailable": ChromiumUnavailable.missing(),
};

describe("analysisFailureOf", () => {
  for (const [reason, error] of Object.entries(thrown)) {
    it(`gives ${reason} with the error's own message`, () => {
      expect(analysisFailureOf(error)).toEqual({ reason, message: error.message });
    });
  }

  it("says what stops Chromium", () => {
    const failure = analysisFailureOf(new ChromiumUnavailable("it refused to start"));
    expect(failure).toEqual({
      reason: "rendering-unavailable",
      message: "Rendered mode is unavailable: it refused to start.",
    });
  });

  it("keeps only the reason and the message, none of a fetch failure's facts", () => {
    const failure = analysisFailureOf(failures.httpStatus(429, 12));
    expect(Object.keys(failure ?? {}).sort()).toEqual(["message", "reason"]);
    expect(failure?.message).toBe("The server returned HTTP 429.");
  });

  it("leaves any other error to the caller", () => {
    expect(analysisFailureOf(new Error("database is locked"))).toBeUndefined();
    expect(analysisFailureOf(new TypeError("x is undefined"))).toBeUndefined();
    expect(analysisFailureOf("a string")).toBeUndefined();
    expect(analysisFailureOf(undefined)).toBeUndefined();
  });

  it("reads the reason from the error, not from its class alone", () => {
    expect(analysisFailureOf(new FetchFailure("timeout", "Ours."))).toEqual({
      reason: "timeout",
      message: "Ours.",
    });
  });
});
