/** inline-css: styling lives in stylesheets rather than style attributes. */
import { type CheckDefinition, outcome, plural, verb } from "./check.js";

export const inlineCss: CheckDefinition = {
  id: "inline-css",
  category: "miscellaneous",
  importance: "low",
  title: "Inline styles",
  description:
    "Few elements carry style attributes; styles in stylesheets are cached, reusable and easier to maintain.",
  howToFix: "Move style attributes into classes in a stylesheet.",
  run(page, { inlineStyles }) {
    const { count, samples } = page.document.inlineStyles;
    if (count > inlineStyles) {
      return outcome.warn(
        `${plural(count, "element")} ${verb(count, "carries", "carry")} a style attribute.`,
        count,
        samples.map((html) => ({ html })),
      );
    }
    return outcome.pass(
      `${plural(count, "element")} ${verb(count, "carries", "carry")} a style attribute.`,
      count,
    );
  },
};
