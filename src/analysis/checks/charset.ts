/** charset: the page declares its character encoding, and it is UTF-8. */
import { type CheckDefinition, outcome } from "./check.js";

export const charset: CheckDefinition = {
  id: "charset",
  category: "miscellaneous",
  importance: "medium",
  title: "Character encoding",
  description:
    "The encoding is declared (Content-Type header or a meta in the first 1,024 bytes) and is UTF-8.",
  howToFix:
    'Save the page as UTF-8 and declare it: "Content-Type: text/html; charset=utf-8" and <meta charset="utf-8"> first in <head>.',
  run(page) {
    const { declaredIn, declaredLabel, encoding } = page.charset;
    if (declaredIn === null)
      return outcome.fail(`The page does not declare its encoding (read as ${encoding}).`, null);
    const where =
      declaredIn === "content-type"
        ? "the Content-Type header"
        : declaredIn === "meta"
          ? "a meta element"
          : "a byte-order mark";
    if (encoding !== "utf-8") {
      return outcome.warn(
        `The page is encoded as ${declaredLabel} (declared in ${where}), not UTF-8.`,
        declaredLabel,
      );
    }
    return outcome.pass(`The page declares UTF-8 in ${where}.`, declaredLabel);
  },
};
