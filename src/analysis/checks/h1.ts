/** h1: the page has a main heading. */
import { type CheckDefinition, outcome, quote } from "./check.js";

export const h1: CheckDefinition = {
  id: "h1",
  category: "seo",
  importance: "high",
  title: "Main heading",
  description: "The page has an <h1> that states its subject, for readers and search engines alike.",
  howToFix:
    "Add one <h1> near the top of the content that says what the page is about; use <h2>–<h6> below it.",
  run(page) {
    const h1s = page.document.headings.filter((heading) => heading.level === 1 && heading.text !== "");
    if (h1s.length === 0) return outcome.fail("The page has no <h1> with text.", 0);
    if (h1s.length > 1) {
      return outcome.warn(
        `The page has ${h1s.length} <h1> headings; one main heading is clearer.`,
        h1s.length,
        h1s.map((heading) => ({ text: heading.text })),
      );
    }
    return outcome.pass(`The main heading is ${quote(h1s[0]?.text ?? "")}.`, 1);
  },
};
