/** meta-description: exactly one non-empty description of a length search results can show. */
import { metaContents } from "../page-facts.js";
import { type CheckDefinition, outcome } from "./check.js";

export const metaDescription: CheckDefinition = {
  id: "meta-description",
  category: "seo",
  importance: "high",
  title: "Meta description",
  description: "The page has one meta description that summarises it for search results.",
  howToFix:
    'Add a single <meta name="description" content="…"> to the <head>: 50 to 160 characters that say what the visitor will find.',
  run(page, { metaDescriptionLength }) {
    const descriptions = page.document.metas.filter((meta) => meta.name === "description");
    if (descriptions.length === 0) return outcome.fail("The page has no meta description.", null);
    if (descriptions.length > 1) {
      return outcome.fail(
        `The page has ${descriptions.length} meta descriptions; it should have one.`,
        descriptions.length,
        metaContents(page, "description").map((content) => ({ content })),
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
