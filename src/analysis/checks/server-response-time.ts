/** server-response-time: the server starts answering quickly. */
import { type CheckDefinition, outcome } from "./check.js";

export const serverResponseTime: CheckDefinition = {
  id: "server-response-time",
  category: "performance",
  importance: "medium",
  title: "Server response time",
  description:
    "The time from request to the first byte of the document is short; everything else waits for it.",
  howToFix:
    "Cache rendered pages, speed up slow database queries, and serve from a CDN or a server close to visitors.",
  run(page, { serverResponseMs }) {
    const ttfb = page.response.ttfbMs;
    if (ttfb <= serverResponseMs.pass) return outcome.pass(`The server answered in ${ttfb} ms.`, ttfb);
    if (ttfb <= serverResponseMs.warn) {
      return outcome.warn(
        `The server took ${ttfb} ms to answer, more than ${serverResponseMs.pass} ms.`,
        ttfb,
      );
    }
    return outcome.fail(`The server took ${ttfb} ms to answer, more than ${serverResponseMs.warn} ms.`, ttfb);
  },
};
