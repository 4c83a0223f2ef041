/** llms-txt: the site offers /llms.txt, a guide for language models. */
import { answerOf } from "../page-facts.js";
import { type CheckDefinition, outcome } from "./check.js";

export const llmsTxt: CheckDefinition = {
  id: "llms-txt",
  category: "miscellaneous",
  importance: "low",
  title: "llms.txt",
  description:
    "/llms.txt gives language models a short guide to the site: a # title and links to the key pages.",
  howToFix:
    'Publish /llms.txt in Markdown: a "# Site name" title, a one-line summary and a list of links to the important pages.',
  needs: ["llmsTxt"],
  run(page) {
    const answer = answerOf(page.probes.llmsTxt);
    if (answer.status !== 200 || /html/.test(answer.mediaType)) {
      return outcome.info(
        `The site has no /llms.txt (HTTP ${answer.status}${answer.status === 200 ? ", an HTML page" : ""}).`,
        null,
      );
    }
    const hasTitle = /^#\s+\S/m.test(answer.text);
    // Plain substring tests: a pattern with nested runs would be quadratic on a hostile 100 KB file.
    const hasLink = answer.text.includes("](") || /https?:\/\//.test(answer.text);
    if (hasTitle && hasLink) return outcome.pass("/llms.txt has a title and links.", answer.url);
    const missing = [hasTitle ? null : "a # title", hasLink ? null : "a link"].filter(Boolean).join(" and ");
    return outcome.warn(`/llms.txt exists but lacks ${missing}.`, answer.url, [{ url: answer.url, missing }]);
  },
};
