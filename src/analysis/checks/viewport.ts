/** viewport: the page is laid out for phones and lets visitors zoom. */
import { type CheckDefinition, outcome } from "./check.js";

export const viewport: CheckDefinition = {
  id: "viewport",
  category: "miscellaneous",
  importance: "medium",
  title: "Mobile viewport",
  description:
    '<meta name="viewport"> with width=device-width makes the page fit phones; it must not stop visitors from zooming.',
  howToFix:
    'Use <meta name="viewport" content="width=device-width, initial-scale=1"> without user-scalable=no or a maximum-scale below 2.',
  run(page, { viewportMinMaximumScale }) {
    const tag = page.document.metas.find((meta) => meta.name === "viewport");
    if (!tag) return outcome.fail("The page has no viewport meta tag.", null);
    const content = tag.content;
    if (content === null) return outcome.fail("The viewport meta tag has no content attribute.", null);
    const settings = new Map(
      content
        .toLowerCase()
        .split(/[,;]/)
        .map((pair) => pair.split("=").map((part) => part.trim()) as [string, string | undefined])
        .filter(([key]) => key),
    );
    if (settings.get("width") !== "device-width") {
      return outcome.fail(`The viewport "${content}" does not set width=device-width.`, content);
    }
    const scalable = settings.get("user-scalable");
    const maxScale = Number(settings.get("maximum-scale") ?? "10");
    if (scalable === "no" || scalable === "0" || maxScale < viewportMinMaximumScale) {
      return outcome.warn(`The viewport "${content}" stops visitors from zooming.`, content);
    }
    return outcome.pass(`The viewport is "${content}".`, content);
  },
};
