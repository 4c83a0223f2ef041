/** failed-requests (rendered mode): every subresource the page asks for loads. */

import type { RenderedFactsSnapshot } from "../snapshot.js";
import { type CheckDefinition, outcome, plural, verb } from "./check.js";

export const failedRequests: CheckDefinition = {
  id: "failed-requests",
  category: "performance",
  importance: "medium",
  title: "Failed requests",
  description: "Every image, script, stylesheet, font and fetch the page makes while loading succeeds.",
  howToFix:
    "Fix or remove references to missing files (404s), broken hosts and blocked addresses; a failing script or stylesheet can break the page for visitors.",
  needs: ["rendered"],
  run(page) {
    const rendered = page.rendered as RenderedFactsSnapshot;
    const count = rendered.failedRequestCount;
    if (count === 0) return outcome.pass("Every request the page made succeeded.", 0);
    return outcome.warn(
      `${plural(count, "request")} the page made ${verb(count, "fails", "fail")}.`,
      count,
      rendered.failedRequests.map((failure) => ({
        url: failure.url,
        type: failure.resourceType,
        status: failure.status,
        error: failure.error,
        blocked: failure.blocked,
      })),
    );
  },
};
