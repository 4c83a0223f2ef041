/** text-html-ratio: visible text is not buried under markup and inline code. */
import { type CheckDefinition, outcome } from "./check.js";

export const textHtmlRatio: CheckDefinition = {
  id: "text-html-ratio",
  category: "miscellaneous",
  importance: "low",
  title: "Text to HTML ratio",
  description:
    "Visible text makes up a reasonable share of the HTML rather than markup, inline scripts and styles.",
  howToFix: "Move inline scripts, styles and JSON into cacheable files and trim wrapper markup.",
  run(page, { textHtmlRatio: minimum }) {
    const { text, htmlLength } = page.document;
    if (htmlLength === 0) return outcome.na("The document is empty.");
    const ratio = Math.round((text.length / htmlLength) * 1000) / 1000;
    const percent = `${(ratio * 100).toFixed(1)} %`;
    if (ratio >= minimum) return outcome.pass(`Visible text is ${percent} of the HTML.`, ratio);
    return outcome.warn(`Visible text is only ${percent} of the HTML.`, ratio);
  },
};
