/** language: the document declares its language with a valid tag. */
import { isLanguageTag } from "../text/language-tag.js";
import { type CheckDefinition, outcome } from "./check.js";

export const language: CheckDefinition = {
  id: "language",
  category: "seo",
  importance: "medium",
  title: "Document language",
  description: "<html lang> names the page's language, for search engines, translation and screen readers.",
  howToFix: 'Set the language on the root element, e.g. <html lang="en"> or <html lang="pt-BR">.',
  run(page) {
    const lang = page.document.lang?.trim() ?? null;
    if (lang === null || lang === "") return outcome.fail("The <html> element has no lang attribute.", null);
    if (!isLanguageTag(lang))
      return outcome.fail(`The language "${lang}" is not a valid language tag.`, lang);
    return outcome.pass(`The page declares its language as "${lang}".`, lang);
  },
};
