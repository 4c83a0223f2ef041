/**
 * image-alt: every image the reader can meet carries an alt attribute (empty for decorative ones). Images inside
 * an element the browser does not render (hidden attribute, inline display:none) are presented to nobody, and
 * the HTML standard's rendering and accessibility rules leave them out; they are not judged.
 */
import { type CheckDefinition, every, outcome, plural, verb } from "./check.js";

export const imageAlt: CheckDefinition = {
  id: "image-alt",
  category: "seo",
  importance: "high",
  title: "Image alternative text",
  description:
    "Every <img> has an alt attribute: search engines and screen readers rely on it to know what an image shows.",
  howToFix:
    'Describe each meaningful image in its alt attribute; give purely decorative images alt="" so they are skipped.',
  run(page) {
    const images = page.document.images.filter((image) => !image.hidden);
    if (images.length === 0) {
      const hidden = page.document.images.length;
      return outcome.na(
        hidden === 0
          ? "The page has no images."
          : `The page shows no images (${plural(hidden, "image")} hidden).`,
        0,
      );
    }
    const missing = images.filter((image) => image.alt === null && !image.decorative);
    if (missing.length > 0) {
      return outcome.fail(
        `${missing.length} of ${plural(images.length, "image")} ${verb(missing.length, "has", "have")} no alt attribute.`,
        missing.length,
        missing.map((image) => ({ src: image.src, html: image.html })),
      );
    }
    // The HTML standard marks a decorative image with alt="" exactly; an alt of only spaces is neither empty nor
    // a description, and some screen readers announce it.
    const blank = images.filter((image) => image.alt !== null && image.alt !== "" && image.alt.trim() === "");
    if (blank.length > 0) {
      return outcome.fail(
        `${blank.length} of ${plural(images.length, "image")} ${verb(blank.length, "has", "have")} an alt of only spaces; use alt="" for a decorative image.`,
        blank.length,
        blank.map((image) => ({ src: image.src, html: image.html })),
      );
    }
    return outcome.pass(
      `${every(images.length, "image")} ${verb(images.length, "has", "have")} an alt attribute.`,
      0,
    );
  },
};
