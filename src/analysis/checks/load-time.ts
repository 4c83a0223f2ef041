/** load-time: the whole document arrives quickly, redirects included. */
import { type CheckDefinition, outcome } from "./check.js";

export const loadTime: CheckDefinition = {
  id: "load-time",
  category: "performance",
  importance: "medium",
  title: "Document load time",
  description: "The HTML document, redirects included, downloads completely within a couple of seconds.",
  howToFix: "Reduce server time and document size, avoid redirect chains, and enable compression.",
  run(page, { loadTimeMs }) {
    const total = page.response.totalMs;
    const seconds = (total / 1000).toFixed(2);
    if (total <= loadTimeMs.pass) return outcome.pass(`The document loaded in ${seconds} s.`, total);
    if (total <= loadTimeMs.warn) return outcome.warn(`The document took ${seconds} s to load.`, total);
    return outcome.fail(
      `The document took ${seconds} s to load, more than ${loadTimeMs.warn / 1000} s.`,
      total,
    );
  },
};
