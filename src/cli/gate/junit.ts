/**
 * JUnit XML for CI systems: one test case per check, one test suite per category, plus a `gate` suite with the
 * baseline and budget verdicts when those were asked for. A `fail` check is a failure; a `warn` check passes
 * (it is advice, and the exit code is the gate) with its message in `system-out`; `na`, `info` and `error`
 * are skipped. Every piece of page text is escaped, and characters XML 1.0 cannot carry are replaced, so a
 * hostile page cannot break or inject into the file.
 */
import type { AnalysisReport } from "../../analysis/analyse.js";
import { catalogue } from "../../analysis/catalogue.js";
import type { CheckResult } from "../../analysis/judge.js";
import { evidenceLine } from "../render-report.js";

/** A verdict of the gate: passed when `problems` is empty, otherwise one line per problem. */
export interface GateCase {
  name: string;
  problems: string[];
}

export interface TestCase {
  name: string;
  classname: string;
  outcome: "passed" | "failure" | "skipped";
  message?: string;
  body?: string;
  output?: string;
}

const titles = new Map(catalogue.map((entry) => [entry.id, entry.title]));

export function junitXml(report: AnalysisReport, gate: GateCase[]): string {
  const suites = new Map<string, TestCase[]>();
  for (const [id, result] of Object.entries(report.results)) {
    const suite = `pagegrade.${result.category}`;
    const cases = suites.get(suite) ?? [];
    cases.push(checkCase(id, result, suite));
    suites.set(suite, cases);
  }
  if (gate.length > 0) suites.set("pagegrade.gate", gateCases(gate));
  return junitDocument(`pagegrade ${report.url}`, report.generated_at, suites);
}

/** The JUnit document of these suites (test cases by suite name). */
export function junitDocument(name: string, timestamp: string, suites: Map<string, TestCase[]>): string {
  const all = [...suites.values()].flat();
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${attribute(name)}" ${counts(all)}>`,
  ];
  for (const [suite, cases] of suites) {
    lines.push(
      `  <testsuite name="${attribute(suite)}" ${counts(cases)} timestamp="${attribute(timestamp)}">`,
    );
    for (const testCase of cases) lines.push(...caseXml(testCase));
    lines.push("  </testsuite>");
  }
  lines.push("</testsuites>");
  return `${lines.join("\n")}\n`;
}

/** The gate's verdicts as test cases of the `pagegrade.gate` suite. */
export function gateCases(gate: GateCase[]): TestCase[] {
  return gate.map((verdict) => ({
    name: verdict.name,
    classname: "pagegrade.gate",
    outcome: verdict.problems.length === 0 ? "passed" : "failure",
    message: verdict.problems[0],
    body: verdict.problems.join("\n"),
  }));
}

function checkCase(id: string, result: CheckResult, classname: string): TestCase {
  const name = `${id}: ${titles.get(id) ?? id}`;
  const evidence = (result.details?.items ?? []).map((item) => `- ${evidenceLine(item)}`);
  if (result.details && result.details.truncated > 0) evidence.push(`… and ${result.details.truncated} more`);
  switch (result.status) {
    case "pass":
      return { name, classname, outcome: "passed" };
    case "fail":
      return {
        name,
        classname,
        outcome: "failure",
        message: result.message,
        body: [`[${result.importance}] ${result.message}`, ...evidence].join("\n"),
      };
    case "warn":
      return {
        name,
        classname,
        outcome: "passed",
        output: [`warn [${result.importance}]: ${result.message}`, ...evidence].join("\n"),
      };
    default:
      return { name, classname, outcome: "skipped", message: `${result.status}: ${result.message}` };
  }
}

function caseXml(testCase: TestCase): string[] {
  const open = `    <testcase classname="${attribute(testCase.classname)}" name="${attribute(testCase.name)}"`;
  if (testCase.outcome === "passed" && testCase.output === undefined) return [`${open}/>`];
  const lines = [`${open}>`];
  if (testCase.outcome === "failure") {
    lines.push(
      `      <failure message="${attribute(testCase.message ?? "")}" type="fail">${text(testCase.body ?? "")}</failure>`,
    );
  }
  if (testCase.outcome === "skipped")
    lines.push(`      <skipped message="${attribute(testCase.message ?? "")}"/>`);
  if (testCase.output !== undefined) lines.push(`      <system-out>${text(testCase.output)}</system-out>`);
  lines.push("    </testcase>");
  return lines;
}

function counts(cases: TestCase[]): string {
  const failures = cases.filter((testCase) => testCase.outcome === "failure").length;
  const skipped = cases.filter((testCase) => testCase.outcome === "skipped").length;
  return `tests="${cases.length}" failures="${failures}" errors="0" skipped="${skipped}"`;
}

/** Characters outside XML 1.0's Char production (most control characters, lone surrogates, U+FFFE/FFFF). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point
const notXml = /[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu;

/** Element text: markup characters escaped, characters XML cannot carry replaced by U+FFFD. */
export function text(value: string): string {
  return value
    .replace(notXml, "\ufffd")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/\r/g, "&#13;");
}

/** An attribute value in double quotes: as element text, plus quotes and the whitespace attributes would fold. */
export function attribute(value: string): string {
  return text(value)
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;")
    .replace(/\t/g, "&#9;")
    .replace(/\n/g, "&#10;");
}
