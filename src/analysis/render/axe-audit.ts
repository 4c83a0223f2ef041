/**
 * Runs axe-core on the rendered page, as Lighthouse's accessibility gatherer does (its
 * core/gather/gatherers/accessibility.js): in a world of its own (Page.createIsolatedWorld, so the page can
 * neither see nor tamper with axe), with the WCAG 2 A and AA rules plus the ones Lighthouse turns on, the ones it
 * turns off left off, and only violations and inapplicable rules in full. The run is bounded: at most
 * `axeTimeLimitMs`, and never past the page's deadline; a page whose run does not finish gets a problem instead
 * of an audit, and its accessibility checks say they could not check. What leaves the page is bounded too: at
 * most `maxAxeNodes` failing nodes per rule (with the count of all), each snippet and summary cut at
 * `maxAxeText` characters.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { CDPSession } from "playwright-core";
import { lighthouseAxeRules } from "../checks/accessibility/lighthouse-rules.js";
import { beforeDeadline } from "./chromium-helpers.js";

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
 * Lighthouse's run options (12.8.2): WCAG 2 A/AA by tag, the rules it enables or disables by name, and
 * `resultTypes` limited to violations and inapplicable. Frames are not entered (`iframes: false`): axe lives
 * in this world of the main frame only, and a frame without axe would cost its ping timeout.
 */
function runExpression(): string {
  const enabled = [
    "accesskeys",
    "aria-allowed-role",
    "aria-treeitem-name",
    "aria-text",
    "empty-heading",
    "heading-order",
    "html-xml-lang-mismatch",
    "identical-links-same-purpose",
    "image-redundant-alt",
    "input-button-name",
    "label-content-name-mismatch",
    "landmark-one-main",
    "link-in-text-block",
    "meta-viewport",
    "select-name",
    "skip-link",
    "tabindex",
    "table-duplicate-name",
    "table-fake-caption",
    "target-size",
    "td-has-header",
  ];
  const disabled = [
    "area-alt",
    "aria-braille-equivalent",
    "aria-roledescription",
    "audio-caption",
    "blink",
    "duplicate-id",
    "duplicate-id-active",
    "frame-focusable-content",
    "frame-title-unique",
    "marquee",
    "nested-interactive",
    "no-autoplay-audio",
    "role-img-alt",
    "scrollable-region-focusable",
    "server-side-image-map",
    "summary-name",
    "svg-img-alt",
  ];
  const rules = Object.fromEntries([
    ...enabled.map((rule) => [rule, { enabled: true }]),
    ...disabled.map((rule) => [rule, { enabled: false }]),
  ]);
  const options = {
    runOnly: { type: "tag", values: ["wcag2a", "wcag2aa"] },
    resultTypes: ["violations", "inapplicable"],
    iframes: false,
    rules,
  };
  const scored = lighthouseAxeRules.map((rule) => rule.rule);
  return `(async () => {
    const cut = (text) => (text.length > ${maxAxeText} ? text.slice(0, ${maxAxeText - 1}) + "…" : text);
    const scored = new Set(${JSON.stringify(scored)});
    const results = await axe.run(document, ${JSON.stringify(options)});
    document.documentElement.scrollTop = 0;
    const violations = {};
    for (const rule of results.violations) {
      if (!scored.has(rule.id)) continue;
      violations[rule.id] = {
        count: rule.nodes.length,
        nodes: rule.nodes.slice(0, ${maxAxeNodes}).map((node) => ({
          selector: node.target.map((part) => (Array.isArray(part) ? part.join(" >>> ") : part)).join(" >>> "),
          snippet: cut(node.html || ""),
          summary: cut(node.failureSummary || ""),
        })),
      };
    }
    const errors = {};
    for (const rule of results.incomplete) {
      if (scored.has(rule.id) && rule.error) errors[rule.id] = cut(String(rule.error.message || rule.error));
    }
    return {
      axeVersion: results.testEngine.version,
      violations,
      inapplicable: results.inapplicable.map((rule) => rule.id).filter((id) => scored.has(id)),
      errors,
    };
  })()`;
}

let runSource: string | undefined;

/** Runs axe on the page's main frame, within `axeTimeLimitMs` and before `deadlineAt`. */
export async function auditAccessibility(cdp: CDPSession, deadlineAt: number): Promise<AccessibilityOutcome> {
  const stopAt = Math.min(performance.now() + axeTimeLimitMs, deadlineAt);
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
      () => new Error(`axe-core did not finish within ${Math.round(axeTimeLimitMs / 1000)} s`),
    );
    return { audit };
  } catch (error) {
    const message = error instanceof Error ? error.message : "";
    return {
      problem: message.startsWith("axe-core") ? message : "the page went away before axe-core could finish",
    };
  }
}
