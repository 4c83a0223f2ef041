/**
 * css-select's view of a parse5 document (the tree the engine's parser builds, `parse.ts`), so selectors run
 * over the very tree the checks judge, with no second parse. Every walk here is a loop, never a recursion: a
 * hostile page may nest elements a hundred thousand deep. A selector's cost on such a page can still grow with
 * elements × depth (`section div` walks every div's ancestors), so each step css-select takes through the tree
 * is counted against a budget (`withStepBudget`) by the nodes it touches: one to a parent, one per sibling or child
 * it hands over (css-select reads them all: `:nth-last-of-type` over 100,000 siblings), one per node a text walk
 * visits (`:contains` reads the whole subtree); past the budget the walk stops with `StepBudgetSpent`. Some of
 * css-select's own work between steps is not counted (`:has` keeps its walk's stack with `unshift`, a copy of
 * the stack per node: on a page nested 100,000 deep, `div:has(> p)` took 161 s within its step budget), so the
 * budget has a time limit too, looked at every `stepsPerClockLook` steps.
 */
import type { Options } from "css-select";
import type { DefaultTreeAdapterTypes } from "parse5";

export type Parse5Node = DefaultTreeAdapterTypes.Node;
export type Parse5Element = DefaultTreeAdapterTypes.Element;

/** A selector took more steps through the tree than its budget. */
export class StepBudgetSpent extends Error {
  override readonly name = "StepBudgetSpent";
}

/** How many steps go by between two looks at the clock: the most one step costs is a copy of a deep stack. */
const stepsPerClockLook = 64;

let stepsLeft = Number.POSITIVE_INFINITY;
let deadline = Number.POSITIVE_INFINITY;
let stepsToClockLook = stepsPerClockLook;

/**
 * Runs `work` with at most `steps` steps through the tree and for at most `ms` milliseconds (synchronous: a
 * thread runs one at a time).
 */
export function withStepBudget<T>(steps: number, ms: number, work: () => T): T {
  const outer = { stepsLeft, deadline, stepsToClockLook };
  stepsLeft = steps;
  deadline = performance.now() + ms;
  stepsToClockLook = stepsPerClockLook;
  try {
    return work();
  } finally {
    ({ stepsLeft, deadline, stepsToClockLook } = outer);
  }
}

function step(count = 1): void {
  stepsLeft -= count;
  if (stepsLeft < 0) throw new StepBudgetSpent("The selector took too many steps through the page.");
  stepsToClockLook -= 1;
  if (stepsToClockLook <= 0) {
    stepsToClockLook = stepsPerClockLook;
    if (performance.now() > deadline) throw new StepBudgetSpent("The selector took too long on the page.");
  }
}

function isElement(node: Parse5Node): node is Parse5Element {
  return "tagName" in node;
}

function childrenOf(node: Parse5Node): Parse5Node[] {
  return "childNodes" in node ? node.childNodes : [];
}

/**
 * The text inside a node, in document order, at most `limit` characters (the walk stops there). Each node it
 * visits is a step of the budget in force, if any.
 */
export function textOf(node: Parse5Node, limit = Number.POSITIVE_INFINITY): string {
  const parts: string[] = [];
  let length = 0;
  const stack: Parse5Node[] = [node];
  while (stack.length > 0 && length < limit) {
    const current = stack.pop() as Parse5Node;
    step();
    if (current.nodeName === "#text") {
      const value = (current as DefaultTreeAdapterTypes.TextNode).value;
      parts.push(value);
      length += value.length;
      continue;
    }
    const children = childrenOf(current);
    for (let index = children.length - 1; index >= 0; index--) stack.push(children[index] as Parse5Node);
  }
  return parts.join("").slice(0, limit);
}

type Adapter = NonNullable<Options<Parse5Node, Parse5Element>["adapter"]>;

export const parse5Adapter: Adapter = {
  isTag: isElement,
  getAttributeValue: (element, name) => element.attrs.find((attribute) => attribute.name === name)?.value,
  hasAttrib: (element, name) => element.attrs.some((attribute) => attribute.name === name),
  getChildren: (node) => {
    const children = childrenOf(node);
    step(1 + children.length);
    return children;
  },
  getName: (element) => element.tagName,
  getParent: (node) => {
    step();
    return (node.parentNode as Parse5Node | null) ?? null;
  },
  getSiblings: (node) => {
    step();
    const parent = "parentNode" in node ? node.parentNode : null;
    const siblings = parent ? childrenOf(parent) : [node];
    step(siblings.length);
    return siblings;
  },
  prevElementSibling: (node) => {
    const parent = "parentNode" in node ? node.parentNode : null;
    if (!parent) return null;
    const siblings = childrenOf(parent);
    const position = siblings.indexOf(node);
    step(1 + position / 64); // indexOf reads the siblings before it
    for (let index = position - 1; index >= 0; index--) {
      step();
      const sibling = siblings[index] as Parse5Node;
      if (isElement(sibling)) return sibling;
    }
    return null;
  },
  getText: (node) => {
    step(); // and one per node the text walk visits
    return textOf(node, 10_000);
  },
  removeSubsets: (nodes) => {
    // Drops any node that has an ancestor in the list, and duplicates.
    const kept = new Set(nodes);
    return nodes.filter((node, index) => {
      if (nodes.indexOf(node) !== index) return false;
      let parent = "parentNode" in node ? node.parentNode : null;
      while (parent) {
        if (kept.has(parent as Parse5Node)) return false;
        parent = "parentNode" in parent ? (parent.parentNode as typeof parent) : null;
      }
      return true;
    });
  },
};

/** The document's elements in document order, walked with a stack. */
export function* elementsOf(root: Parse5Node): Generator<Parse5Element> {
  const stack: Parse5Node[] = [root];
  while (stack.length > 0) {
    const current = stack.pop() as Parse5Node;
    if (isElement(current)) yield current;
    const children = childrenOf(current);
    for (let index = children.length - 1; index >= 0; index--) stack.push(children[index] as Parse5Node);
  }
}
