/** mixed-content: an https page loads nothing over plain http. */
import { type CheckDefinition, outcome, plural, verb } from "./check.js";

export const mixedContent: CheckDefinition = {
  id: "mixed-content",
  category: "security",
  importance: "medium",
  title: "Mixed content",
  description:
    "An HTTPS page loads its scripts, styles, images, frames and media over HTTPS too; browsers block or flag the rest.",
  howToFix: "Change the http:// resource URLs to https:// (or protocol-relative paths on your own host).",
  run(page) {
    if (new URL(page.finalUrl).protocol !== "https:") return outcome.na("The page is not served over HTTPS.");
    const insecure: Array<{ url: string; html: string }> = [];
    // The element's start tag is rendered only for the resources shown as evidence.
    const add = (url: string | null, element: { readonly html: string }) => {
      if (url?.startsWith("http:")) insecure.push({ url, html: element.html });
    };
    const { scripts, images, resources } = page.document;
    for (const script of scripts) add(script.src, script);
    for (const image of images) {
      add(image.src, image);
      for (const candidate of image.srcset) add(candidate, image);
    }
    for (const resource of resources) add(resource.url, resource);
    if (insecure.length > 0) {
      return outcome.fail(
        `${plural(insecure.length, "resource")} ${verb(insecure.length, "loads", "load")} over plain HTTP.`,
        insecure.length,
        insecure,
      );
    }
    return outcome.pass("Every resource loads over HTTPS.", 0);
  },
};
