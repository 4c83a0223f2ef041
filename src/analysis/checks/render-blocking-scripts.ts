/** render-blocking-scripts: no external script in <head> stops rendering while it downloads. */
import { type CheckDefinition, outcome, plural, verb } from "./check.js";

const javascriptTypes = new Set([
  "",
  "text/javascript",
  "application/javascript",
  "application/ecmascript",
  "text/ecmascript",
]);

export const renderBlockingScripts: CheckDefinition = {
  id: "render-blocking-scripts",
  category: "performance",
  importance: "low",
  title: "Render-blocking scripts",
  description:
    "External scripts in <head> are loaded with defer, async or type=module, so they do not hold up the first paint.",
  howToFix: "Add defer (keeps order) or async to external scripts in <head>, or load them as modules.",
  run(page) {
    const blocking = page.document.scripts.filter(
      (script) =>
        script.inHead &&
        script.src !== null &&
        !script.async &&
        !script.defer &&
        javascriptTypes.has(script.type ?? ""),
    );
    if (blocking.length > 0) {
      return outcome.warn(
        `${plural(blocking.length, "script")} in <head> ${verb(blocking.length, "blocks", "block")} rendering.`,
        blocking.length,
        blocking.map((script) => ({ src: script.src, html: script.html })),
      );
    }
    return outcome.pass("No external script in <head> blocks rendering.", 0);
  },
};
