/** failed-requests (rendered mode): every subresource the page asks for loads. */

import { plural, verb } from "./check.js";
import { renderedListCheck } from "./kinds/rendered-list.js";

export const failedRequests = renderedListCheck({
  id: "failed-requests",
  category: "performance",
  importance: "medium",
  title: "Failed requests",
  description: "Every image, script, stylesheet, font and fetch the page makes while loading succeeds.",
  howToFix:
    "Fix or remove references to missing files (404s), broken hosts and blocked addresses; a failing script or stylesheet can break the page for visitors.",
  read: (rendered) => ({ count: rendered.failedRequestCount, items: rendered.failedRequests }),
  none: "Every request the page made succeeded.",
  found: (count) => `${plural(count, "request")} the page made ${verb(count, "fails", "fail")}.`,
  evidence: (failure) => ({
    url: failure.url,
    type: failure.resourceType,
    status: failure.status,
    error: failure.error,
    blocked: failure.blocked,
  }),
});
