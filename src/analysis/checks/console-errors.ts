/** console-errors (rendered mode): the page's scripts run without errors. */

import type { RenderedFactsSnapshot } from "../snapshot.js";
import { type CheckDefinition, outcome, plural } from "./check.js";

export const consoleErrors: CheckDefinition = {
  id: "console-errors",
  category: "miscellaneous",
  importance: "low",
  title: "Console errors",
  description: "Loading the page throws no uncaught exception and logs no console error.",
  howToFix:
    "Open the browser's developer tools on the page, read each error with its script and line, and fix the code (or the missing resource) that causes it.",
  needs: ["rendered"],
  run(page) {
    const rendered = page.rendered as RenderedFactsSnapshot;
    const count = rendered.consoleProblemCount;
    if (count === 0) return outcome.pass("The page logged no errors while loading.", 0);
    return outcome.warn(
      `The page logged ${plural(count, "error")} while loading.`,
      count,
      rendered.consoleProblems.map((problem) => ({
        kind: problem.kind,
        message: problem.text,
        location: problem.location,
      })),
    );
  },
};
