/** deprecated-html: no obsolete HTML elements. */
import { type CheckDefinition, outcome, plural } from "./check.js";

export const deprecatedHtml: CheckDefinition = {
  id: "deprecated-html",
  category: "miscellaneous",
  importance: "low",
  title: "Obsolete elements",
  description:
    "The page uses no obsolete elements such as <font>, <center> or <marquee> (<s> and <u> are valid).",
  howToFix: "Replace obsolete presentational elements with semantic HTML and CSS.",
  run(page) {
    const found = page.document.deprecatedElements;
    if (found.length > 0) {
      const tags = [...new Set(found.map((element) => `<${element.tag}>`))];
      return outcome.fail(
        `The page uses ${plural(found.length, "obsolete element")}: ${tags.join(", ")}.`,
        found.length,
        found.map(({ tag, html }) => ({ tag, html })),
      );
    }
    return outcome.pass("The page uses no obsolete elements.", 0);
  },
};
