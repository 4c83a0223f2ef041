/**
 * The accessibility checks (rendered mode): one per rule of Lighthouse's accessibility category (`a11y-<rule>`),
 * judged from axe-core's run on the rendered page (axe-audit.ts beside it) as Lighthouse judges it: the rule's
 * violations → fail, with every failing node (selector, snippet, axe's failure summary) as evidence; a rule
 * with nothing to judge → na; an axe error on the rule → error; otherwise pass (axe's "incomplete" is not a
 * failure). The audits Lighthouse reports as informative are `info` with the flagged elements, or `na`. In raw mode they are `na` (they need the rendered page).
 */

import type { RenderedFactsSnapshot } from "../../snapshot.js";
import { type CheckDefinition, type CheckImportance, type EvidenceItem, outcome, plural } from "../check.js";
import type { AxeFailingNode } from "./axe-audit.js";
import { type LighthouseAxeRule, lighthouseAxeRules } from "./lighthouse-rules.js";

/** Lighthouse's weight → pagegrade's importance. */
export function importanceOfWeight(weight: LighthouseAxeRule["weight"]): CheckImportance {
  if (weight === 10) return "high";
  if (weight === 7) return "medium";
  return "low";
}

/** The check id of an axe rule. */
export function accessibilityCheckId(rule: string): string {
  return `a11y-${rule}`;
}

function evidenceOf(nodes: readonly AxeFailingNode[]): EvidenceItem[] {
  return nodes.map((node) => ({ selector: node.selector, snippet: node.snippet, summary: node.summary }));
}

function axeCheck(rule: LighthouseAxeRule): CheckDefinition {
  return {
    id: accessibilityCheckId(rule.rule),
    category: "accessibility",
    importance: importanceOfWeight(rule.weight),
    title: rule.help,
    description: `${rule.description} (axe-core rule \`${rule.rule}\`, scored by Lighthouse's accessibility category).`,
    howToFix: `Fix each element listed in the evidence as axe's summary says; Deque's page for the rule explains it with examples: https://dequeuniversity.com/rules/axe/4.14/${rule.rule}`,
    needs: ["rendered"],
    run(page) {
      const rendered = page.rendered as RenderedFactsSnapshot;
      const outcomeOfAxe = rendered.accessibility;
      if ("problem" in outcomeOfAxe) return outcome.error(`Could not check: ${outcomeOfAxe.problem}.`);
      const { audit } = outcomeOfAxe;
      const error = audit.errors[rule.rule];
      if (error !== undefined)
        return outcome.error(`Could not check: axe-core failed on this rule (${error}).`);
      if (audit.inapplicable.includes(rule.rule)) {
        return outcome.na(`Nothing on the page for this rule to judge: ${rule.help}.`);
      }
      const violation = audit.violations[rule.rule];
      if (rule.informative) {
        const flagged = violation ?? audit.review[rule.rule];
        if (!flagged || flagged.count === 0)
          return outcome.na(`axe-core flagged nothing to review: ${rule.help}.`);
        return outcome.info(
          `${plural(flagged.count, "element")} to review by hand (axe-core cannot decide alone): ${rule.help}.`,
          flagged.count,
          evidenceOf(flagged.nodes),
        );
      }
      if (!violation || violation.count === 0) return outcome.pass(`No element fails: ${rule.help}.`, 0);
      return outcome.fail(
        `${plural(violation.count, "element")} ${violation.count === 1 ? "fails" : "fail"}: ${rule.help}.`,
        violation.count,
        evidenceOf(violation.nodes),
      );
    },
  };
}

export const accessibilityChecks: readonly CheckDefinition[] = lighthouseAxeRules.map(axeCheck);
