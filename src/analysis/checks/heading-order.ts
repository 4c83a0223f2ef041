/** heading-order: heading levels never skip a level on the way down. */
import { type CheckDefinition, outcome, plural } from "./check.js";

export const headingOrder: CheckDefinition = {
  id: "heading-order",
  category: "seo",
  importance: "low",
  title: "Heading order",
  description:
    "Headings form an outline: each level follows the one above it without skipping (h2 → h3, not h2 → h4).",
  howToFix:
    "Use heading levels for structure, not looks: after an <h2> comes an <h3>; style headings with CSS.",
  run(page) {
    const headings = page.document.headings;
    if (headings.length === 0) return outcome.na("The page has no headings.");
    const skips: Array<{ from: string; to: string; text: string }> = [];
    let previous = 0;
    for (const heading of headings) {
      if (previous > 0 && heading.level > previous + 1) {
        skips.push({ from: `h${previous}`, to: `h${heading.level}`, text: heading.text });
      }
      previous = heading.level;
    }
    if (skips.length > 0) {
      return outcome.warn(
        `Heading levels skip ${plural(skips.length, "time")}, first from ${skips[0]?.from} to ${skips[0]?.to}.`,
        skips.length,
        skips,
      );
    }
    return outcome.pass(`Heading levels never skip (${plural(headings.length, "heading")}).`, 0);
  },
};
