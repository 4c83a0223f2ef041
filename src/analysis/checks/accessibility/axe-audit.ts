/**
 * Runs axe-core on the rendered page, as Lighthouse's accessibility gatherer does (its
 * core/gather/gatherers/accessibility.js): in a world of its own (Page.createIsolatedWorld, so the page can
 * neither see nor tamper with axe); it runs exactly the rules its category scores, with violations and
 * inapplicable rules in full. The run is bounded: at most `axeTimeLimitMs`, and never past the page's deadline; a page whose run does not finish gets a problem instead
 * of an audit, and its accessibility checks say they could not check. What leaves the page is bounded too: at
 * most `maxAxeNodes` failing nodes per rule (with the count of all), each snippet and summary cut at
 * `maxAxeText` characters.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { CDPSession } from "playwright-core";
import { beforeDeadline } from "../../../runtime/deadline.js";
import { lighthouseAxeRules } from "./lighthouse-rules.js";

/** Longest time axe may take on one page (a large DOM takes seconds; an ordinary page a few hundred ms). */
export const axeTimeLimitMs = 10_000;
/** Failing nodes kept per rule (the count of all is kept too). */
export const maxAxeNodes = 50;
/** Longest snippet or failure summary kept, in characters. */
export const maxAxeText = 500;

/** One element that fails a rule: axe's CSS selector for it, its HTML (cut), and axe's failure summary. */
export interface AxeFailingNode {
  selector: string;
  snippet: string;
  summary: string;
}

/** What axe said of the page, per rule of Lighthouse's accessibility category. */
export interface AccessibilityAudit {
  axeVersion: string;
  /** Rules with violations: up to `maxAxeNodes` failing nodes each, and how many fail in all. */
  violations: Record<string, { nodes: AxeFailingNode[]; count: number }>;
  /**
   * Rules whose result axe could not decide alone ("incomplete": needs review), with the nodes it lists (one
   * per rule, as `resultTypes` asks).
   */
  review: Record<string, { nodes: AxeFailingNode[]; count: number }>;
  /** Rules that found nothing to judge on the page. */
  inapplicable: string[];
  /** Rules axe could not complete, with its error message. */
  errors: Record<string, string>;
}

/** The audit, or why axe could not give one (time limit, the page went away). */
export type AccessibilityOutcome = { audit: AccessibilityAudit } | { problem: string };

let axeSource: string | undefined;

/** axe-core's browser bundle, read once per process. */
function axeScript(): string {
  axeSource ??= readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
  return axeSource;
}

/**
 * Lighthouse's run (12.8.2's accessibility gatherer) restricted to the rules its category scores: each axe rule
 * judges the page on its own, so running only those gives the same verdicts in less time. `resultTypes` as
 * Lighthouse's (violations and inapplicable rules in full). Frames are not entered (`iframes: false`): axe
 * lives in this world of the main frame only, and a frame without axe would cost its ping timeout.
 */
function runExpression(): string {
  const scored = lighthouseAxeRules.map((rule) => rule.rule);
  const options = {
    runOnly: { type: "rule", values: scored },
    resultTypes: ["violations", "inapplicable"],
    iframes: false,
  };
  return `(async () => {
    const cut = (text) => (text.length > ${maxAxeText} ? text.slice(0, ${maxAxeText - 1}) + "…" : text);
    const nodesOf = (rule) => ({
      count: rule.nodes.length,
      nodes: rule.nodes.slice(0, ${maxAxeNodes}).map((node) => ({
        selector: node.target.map((part) => (Array.isArray(part) ? part.join(" >>> ") : part)).join(" >>> "),
        snippet: cut(node.html || ""),
        summary: cut(node.failureSummary || ""),
      })),
    });
    const results = await axe.run(document, ${JSON.stringify(options)});
    document.documentElement.scrollTop = 0;
    const violations = {};
    for (const rule of results.violations) violations[rule.id] = nodesOf(rule);
    const review = {};
    const errors = {};
    for (const rule of results.incomplete) {
      if (rule.error) errors[rule.id] = cut(String(rule.error.message || rule.error));
      else review[rule.id] = nodesOf(rule);
    }
    return {
      axeVersion: results.testEngine.version,
      violations,
      review,
      inapplicable: results.inapplicable.map((rule) => rule.id),
      errors,
    };
  })()`;
}

let runSource: string | undefined;

/** Runs axe on the page's main frame, within `limitMs` (`axeTimeLimitMs`) and before `deadlineAt`. */
export async function auditAccessibility(
  cdp: CDPSession,
  deadlineAt: number,
  limitMs = axeTimeLimitMs,
): Promise<AccessibilityOutcome> {
  const stopAt = Math.min(performance.now() + limitMs, deadlineAt);
  const work = async (): Promise<AccessibilityAudit> => {
    const frameId = (await cdp.send("Page.getFrameTree")).frameTree.frame.id;
    const { executionContextId } = await cdp.send("Page.createIsolatedWorld", {
      frameId,
      worldName: "pagegrade-axe",
    });
    const loaded = await cdp.send("Runtime.evaluate", {
      expression: axeScript(),
      contextId: executionContextId,
    });
    if (loaded.exceptionDetails) throw new Error("axe-core could not load in the page");
    runSource ??= runExpression();
    const ran = await cdp.send("Runtime.evaluate", {
      expression: runSource,
      contextId: executionContextId,
      awaitPromise: true,
      returnByValue: true,
    });
    if (ran.exceptionDetails) throw new Error("axe-core failed on the page");
    return ran.result.value as AccessibilityAudit;
  };
  try {
    const audit = await beforeDeadline(
      work(),
      stopAt,
      () => new Error(`axe-core did not finish within ${limitMs / 1000} s`),
    );
    return { audit };
  } catch (error) {
    const message = error instanceof Error ? error.message : "";
    return {
      problem: message.startsWith("axe-core") ? message : "the page went away before axe-core could finish",
    };
  }
}
