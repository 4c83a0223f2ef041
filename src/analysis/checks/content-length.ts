/** content-length: the page has enough text to be worth ranking. */
import { countWords } from "../text/words.js";
import { type CheckDefinition, outcome } from "./check.js";

export const contentLength: CheckDefinition = {
  id: "content-length",
  category: "miscellaneous",
  importance: "low",
  title: "Amount of text",
  description: "The page has a substantial amount of visible text; thin pages rarely rank.",
  howToFix:
    "Write more useful, original text about the page's subject: answer the questions visitors come with.",
  run(page, { contentWords }) {
    const words = countWords(page.document.text);
    if (words >= contentWords.pass) return outcome.pass(`The page has about ${words} words of text.`, words);
    if (words >= contentWords.warn)
      return outcome.warn(`The page has only about ${words} words of text.`, words);
    return outcome.fail(
      `The page has only about ${words} words of text, fewer than ${contentWords.warn}.`,
      words,
    );
  },
};
