/**
 * What the rendered-only checks that list what went wrong share (console errors, failed requests): a check made
 * from where the browser's list and its full count are, and how to word them. Each needs `rendered`, so the
 * judge has answered raw mode; the check passes when the count is 0 and warns otherwise, the listed items as
 * its evidence (the list may hold fewer than the count: the collector bounds it).
 */
import type { RenderedFactsSnapshot } from "../../snapshot.js";
import { type CheckDefinition, type EvidenceItem, outcome } from "../check.js";

/** One rendered list as a check: its catalogue texts, where to read the list, and how to word it. */
export interface RenderedListCheck<Item> extends Omit<CheckDefinition, "needs" | "run"> {
  /** How many went wrong (the list may be capped) and the ones listed. */
  read: (rendered: RenderedFactsSnapshot) => { count: number; items: readonly Item[] };
  /** The message when nothing went wrong. */
  none: string;
  /** The message for how many went wrong. */
  found: (count: number) => string;
  /** One listed item as evidence. */
  evidence: (item: Item) => EvidenceItem;
}

/** The check that warns when the rendered page's list is not empty. */
export function renderedListCheck<Item>(check: RenderedListCheck<Item>): CheckDefinition {
  const { id, category, importance, title, description, howToFix } = check;
  return {
    id,
    category,
    importance,
    title,
    description,
    howToFix,
    needs: ["rendered"],
    run(page) {
      const { count, items } = check.read(page.rendered as RenderedFactsSnapshot);
      if (count === 0) return outcome.pass(check.none, 0);
      return outcome.warn(check.found(count), count, items.map(check.evidence));
    },
  };
}
