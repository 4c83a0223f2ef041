/**
 * content-keywords: the significant words of the title appear in the page's text. A page without a title (none,
 * or empty) fails with it: what the check judges went missing, so the page must not score higher for it
 * (checks.md, "Scores move the way a site owner expects"); a title with no significant word is `na`.
 */
import { stopWords } from "../text/stop-words.js";
import { containsWord, hasUnspacedScript, wordsOf } from "../text/words.js";
import { type CheckDefinition, outcome } from "./check.js";

export const contentKeywords: CheckDefinition = {
  id: "content-keywords",
  category: "seo",
  importance: "high",
  title: "Title keywords in content",
  description: "The words that the title promises appear in the visible text of the page.",
  howToFix:
    "Make the page's text talk about what its title says: use the title's key words in headings and paragraphs.",
  run(page) {
    const title = page.document.titles[0] ?? "";
    if (title.trim() === "") {
      return outcome.fail("The page has no title, so its text cannot match what a title promises.", {
        found: [],
        missing: [],
      });
    }
    const keywords = [...new Set(wordsOf(title))].filter(
      (word) =>
        !stopWords.has(word) && ([...word].length > 2 || hasUnspacedScript(word)) && !/^\d+$/.test(word),
    );
    if (keywords.length === 0) return outcome.na("The title has no significant words to look for.");
    const text = page.document.text.toLowerCase();
    const found = keywords.filter((word) =>
      hasUnspacedScript(word) ? text.includes(word) : containsWord(text, word),
    );
    const missing = keywords.filter((word) => !found.includes(word));
    const value = { found, missing };
    if (found.length === 0) {
      return outcome.fail(
        `None of the title's keywords (${keywords.join(", ")}) appear in the page's text.`,
        value,
        missing.map((word) => ({ keyword: word })),
      );
    }
    return outcome.pass(`${found.length} of ${keywords.length} title keywords appear in the text.`, value);
  },
};
