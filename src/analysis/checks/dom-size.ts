/** dom-size: the document has a manageable number of elements. */
import { type CheckDefinition, outcome } from "./check.js";

export const domSize: CheckDefinition = {
  id: "dom-size",
  category: "performance",
  importance: "low",
  title: "DOM size",
  description:
    "The page has a moderate number of elements; large documents are slow to style, lay out and script.",
  howToFix:
    "Remove wrapper elements, paginate or virtualise long lists, and load hidden parts (menus, tabs) on demand.",
  run(page, { domElements }) {
    const count = page.document.elementCount;
    if (count <= domElements.pass) return outcome.pass(`The page has ${count} elements.`, count);
    if (count <= domElements.warn)
      return outcome.warn(`The page has ${count} elements, more than ${domElements.pass}.`, count);
    return outcome.fail(`The page has ${count} elements, more than ${domElements.warn}.`, count);
  },
};
