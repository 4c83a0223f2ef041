/** image-format: raster images use a modern format (AVIF or WebP). */
import type { ImageElement } from "../snapshot.js";
import { type CheckDefinition, outcome, plural, verb } from "./check.js";

const legacyExtensions = /\.(jpe?g|png|gif|bmp|tiff?)$/i;
const modernSourceTypes = new Set(["image/avif", "image/webp", "image/jxl"]);
/** Image CDNs that pick the format by the browser's Accept header when asked to. */
const negotiatedFormat = /[?&](auto=format|fm=(webp|avif)|format=(webp|avif|auto)|f=(webp|avif|auto))/i;

export const imageFormat: CheckDefinition = {
  id: "image-format",
  category: "performance",
  importance: "medium",
  title: "Modern image formats",
  description:
    "Photos and graphics are served as AVIF or WebP, which are far smaller than JPEG, PNG or GIF at the same quality.",
  howToFix:
    'Convert images to AVIF or WebP, or offer them in a <picture> with <source type="image/avif"> before the fallback <img>.',
  run(page) {
    const rasters = page.document.images.filter(
      (image) => image.src !== null && !image.src.startsWith("data:"),
    );
    if (rasters.length === 0) return outcome.na("The page has no images loaded by URL.");
    const legacy = rasters.filter(isLegacyFormat);
    if (legacy.length > 0) {
      return outcome.warn(
        `${legacy.length} of ${plural(rasters.length, "image")} ${verb(legacy.length, "uses", "use")} an older format such as JPEG, PNG or GIF.`,
        legacy.length,
        legacy.map((image) => ({ src: image.src, html: image.html })),
      );
    }
    return outcome.pass(`None of the ${plural(rasters.length, "image")} uses an older format.`, 0);
  },
};

function isLegacyFormat(image: ImageElement): boolean {
  if (image.pictureSourceTypes.some((type) => modernSourceTypes.has(type))) return false;
  const src = image.src as string;
  let url: URL;
  try {
    url = new URL(src);
  } catch {
    return false;
  }
  if (negotiatedFormat.test(url.search)) return false;
  return legacyExtensions.test(url.pathname);
}
