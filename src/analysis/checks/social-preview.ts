/** social-preview: links shared on social networks show a title, description and image. */
import { metaContents } from "../page-facts.js";
import { type CheckDefinition, outcome } from "./check.js";

export const socialPreview: CheckDefinition = {
  id: "social-preview",
  category: "miscellaneous",
  importance: "low",
  title: "Social preview",
  description: "Open Graph (and Twitter card) tags give shared links a title, a description and an image.",
  howToFix:
    'Add og:title, og:description and og:image (an absolute URL) meta tags, plus <meta name="twitter:card" content="summary_large_image">.',
  run(page) {
    const first = (...names: string[]) =>
      names.map((name) => metaContents(page, name)[0]?.trim()).find(Boolean) ?? null;
    const fields = {
      title: first("og:title", "twitter:title"),
      description: first("og:description", "twitter:description"),
      image: first("og:image", "og:image:url", "twitter:image"),
      card: first("twitter:card"),
    };
    if (!fields.title && !fields.description && !fields.image && !fields.card) {
      return outcome.fail("The page has no Open Graph or Twitter card tags.", fields);
    }
    const missing: string[] = [];
    if (!fields.title) missing.push("og:title");
    if (!fields.description) missing.push("og:description");
    if (!fields.image) missing.push("og:image");
    else if (!/^https?:\/\//i.test(fields.image)) missing.push("an absolute og:image URL");
    // Without twitter:card, X falls back to Open Graph, so a complete OG set is enough.
    if (!fields.card && missing.length > 0) missing.push("twitter:card");
    if (missing.length > 0) {
      return outcome.warn(
        `The social preview lacks ${missing.join(", ")}.`,
        fields,
        missing.map((tag) => ({ missing: tag })),
      );
    }
    return outcome.pass("Shared links get a title, description and image.", fields);
  },
};
