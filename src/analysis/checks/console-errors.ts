/** console-errors (rendered mode): the page's scripts run without errors. */

import { plural } from "./check.js";
import { renderedListCheck } from "./kinds/rendered-list.js";

export const consoleErrors = renderedListCheck({
  id: "console-errors",
  category: "miscellaneous",
  importance: "low",
  title: "Console errors",
  description: "Loading the page throws no uncaught exception and logs no console error.",
  howToFix:
    "Open the browser's developer tools on the page, read each error with its script and line, and fix the code (or the missing resource) that causes it.",
  read: (rendered) => ({ count: rendered.consoleProblemCount, items: rendered.consoleProblems }),
  none: "The page logged no errors while loading.",
  found: (count) => `The page logged ${plural(count, "error")} while loading.`,
  evidence: (problem) => ({ kind: problem.kind, message: problem.text, location: problem.location }),
});
