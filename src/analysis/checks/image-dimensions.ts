/** image-dimensions: images reserve their space, so the layout does not jump while they load. */
import { type CheckDefinition, every, outcome, plural, verb } from "./check.js";

export const imageDimensions: CheckDefinition = {
  id: "image-dimensions",
  category: "performance",
  importance: "low",
  title: "Image dimensions",
  description:
    "Every <img> has width and height attributes, so the browser reserves its space and the layout does not shift.",
  howToFix:
    "Add width and height attributes with the image's intrinsic size; CSS can still scale it (height: auto).",
  run(page) {
    const images = page.document.images;
    if (images.length === 0) return outcome.na("The page has no images.");
    const missing = images.filter((image) => !image.width?.trim() || !image.height?.trim());
    if (missing.length > 0) {
      return outcome.warn(
        `${missing.length} of ${plural(images.length, "image")} ${verb(missing.length, "lacks", "lack")} width or height.`,
        missing.length,
        missing.map((image) => ({ src: image.src, html: image.html })),
      );
    }
    return outcome.pass(
      `${every(images.length, "image")} ${verb(images.length, "has", "have")} width and height.`,
      0,
    );
  },
};
