/** title: exactly one non-empty <title> of a length search results can show. */
import { type CheckDefinition, outcome, quote } from "./check.js";

export const title: CheckDefinition = {
  id: "title",
  category: "seo",
  importance: "high",
  title: "Title",
  description:
    "The page has exactly one <title>, long enough to describe it and short enough not to be cut off.",
  howToFix:
    "Give the page a single <title> in its <head> of 10 to 60 characters that names what the page is about, most important words first.",
  run(page, { titleLength }) {
    const titles = page.document.titles;
    if (titles.length === 0) return outcome.fail("The page has no <title> element.", null);
    if (titles.length > 1) {
      return outcome.fail(
        `The page has ${titles.length} <title> elements; it should have one.`,
        titles.length,
        titles.map((text) => ({ title: text })),
      );
    }
    const text = titles[0] as string;
    if (text === "") return outcome.fail("The <title> element is empty.", 0);
    const length = [...text].length;
    if (length < titleLength.min) {
      return outcome.warn(
        `The title ${quote(text)} is ${length} characters, shorter than ${titleLength.min}.`,
        length,
        [{ title: text }],
      );
    }
    if (length > titleLength.max) {
      return outcome.warn(
        `The title is ${length} characters, longer than ${titleLength.max}; search results will cut it.`,
        length,
        [{ title: text }],
      );
    }
    return outcome.pass(`The title ${quote(text)} is ${length} characters.`, length);
  },
};
