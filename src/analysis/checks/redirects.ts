/** redirects: the submitted URL reaches the page in at most one redirect. */
import { type CheckDefinition, outcome, plural } from "./check.js";

export const redirects: CheckDefinition = {
  id: "redirects",
  category: "performance",
  importance: "medium",
  title: "Redirects",
  description: "The URL leads to the page with at most one redirect; each extra hop costs a round trip.",
  howToFix:
    "Link to and redirect straight to the final URL (scheme, host and trailing slash included) in a single hop.",
  run(page, { redirects: limits }) {
    const hops = page.response.redirects;
    const value = hops.map((hop) => ({ url: hop.url, status: hop.status, location: hop.location }));
    const message = `The URL ${hops.length === 0 ? "is not redirected" : `is redirected ${plural(hops.length, "time")}`}.`;
    if (hops.length <= limits.pass) return outcome.pass(message, value);
    return hops.length <= limits.warn
      ? outcome.warn(message, value, value)
      : outcome.fail(message, value, value);
  },
};
