/**
 * meta-description: exactly one non-empty description in the <head>, of a length search results can show. The
 * HTML standard gives <meta name> its meaning only in the head (metadata content), and allows one description
 * per document; a parser moves a <meta> that follows body content into the <body>, where it describes nothing.
 */
import { type CheckDefinition, outcome, plural, verb } from "./check.js";

export const metaDescription: CheckDefinition = {
  id: "meta-description",
  category: "seo",
  importance: "high",
  title: "Meta description",
  description: "The page has one meta description that summarises it for search results.",
  howToFix:
    'Add a single <meta name="description" content="…"> to the <head>: 50 to 160 characters that say what the visitor will find.',
  run(page, { metaDescriptionLength }) {
    const all = page.document.metas.filter((meta) => meta.name === "description");
    const descriptions = all.filter((meta) => meta.inHead);
    if (descriptions.length === 0) {
      if (all.length === 0) return outcome.fail("The page has no meta description.", null);
      return outcome.fail(
        `The page has no meta description in its <head>; ${plural(all.length, "meta description")} in the <body> ${verb(all.length, "does", "do")} not count.`,
        null,
        all.map((meta) => ({ content: meta.content, where: "body" })),
      );
    }
    if (descriptions.length > 1) {
      return outcome.fail(
        `The page has ${descriptions.length} meta descriptions; it should have one.`,
        descriptions.length,
        descriptions.map((meta) => ({ content: meta.content })),
      );
    }
    const raw = descriptions[0]?.content ?? null;
    if (raw === null) return outcome.fail("The meta description has no content attribute.", 0);
    const content = raw.trim();
    if (content === "") return outcome.fail("The meta description is empty.", 0);
    const length = [...content].length;
    const items = [{ content }];
    if (length < metaDescriptionLength.min) {
      return outcome.warn(
        `The meta description is ${length} characters, shorter than ${metaDescriptionLength.min}.`,
        length,
        items,
      );
    }
    if (length > metaDescriptionLength.max) {
      return outcome.warn(
        `The meta description is ${length} characters, longer than ${metaDescriptionLength.max}; search results will cut it.`,
        length,
        items,
      );
    }
    return outcome.pass(`The meta description is ${length} characters.`, length);
  },
};
