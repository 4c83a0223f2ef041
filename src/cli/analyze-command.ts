/**
 * `pagegrade analyze`: one URL printed as a readable report (or --json), or many URLs from a file analysed
 * concurrently into JSON Lines, with a progress bar when stderr is a terminal. `--mode rendered` loads each
 * page in Chromium (PAGEGRADE_CHROMIUM_PATH) instead of reading the HTML as served. For one URL, the regression
 * gate: --baseline (what changed since a saved report; a regressed check fails), --budget (minimum scores and
 * checks that must pass) and --junit (the checks as JUnit XML for CI).
 */
import { createWriteStream, readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { type AnalysisReport, Analyzer } from "../analysis/analyse.js";
import { diffAnalyses, isRegression } from "../analysis/analysis-diff.js";
import { analysisFailureOf } from "../analysis/analysis-failure.js";
import { ChromiumUnavailable } from "../analysis/render/render-errors.js";
import { InvalidUrl } from "../analysis/submitted-url.js";
import { ConfigError } from "../config.js";
import { UsageError } from "../errors.js";
import type { AnalysisMode } from "../vocabulary.js";
import { paletteFor } from "./colour.js";
import { type Baseline, loadBaseline } from "./gate/baseline.js";
import { type Budget, budgetBreaches, loadBudget } from "./gate/budget.js";
import { type GateCase, junitXml } from "./gate/junit.js";
import { renderDiff } from "./gate/render-diff.js";
import { ProgressBar } from "./progress-bar.js";
import { renderReport, safe } from "./render-report.js";
import { commandAnalysisConfig } from "./renders-at-once.js";

/** The report fields the command prints with --json (the API's report object, without storage fields). */
export function reportJson(report: AnalysisReport) {
  const { url, final_url, project, result, score, summary, categories, results, generated_at } = report;
  return { url, final_url, project, result, score, summary, categories, results, generated_at };
}

export async function runAnalyze(args: string[]): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(args);
  } catch (error) {
    throw error instanceof UsageError ? error : new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  const mode = modeOf(values.mode);
  const gateOptions = (["baseline", "budget", "junit"] as const).filter((name) => values[name] !== undefined);
  if (values.file !== undefined) {
    if (gateOptions.length > 0) {
      throw new UsageError(
        `--${gateOptions[0]} gates one URL; it cannot be used with --file (run one analyze per URL instead)`,
      );
    }
    if (positionals.length > 0) throw new UsageError("give either a URL or --file, not both");
    if (values.json) throw new UsageError("--json prints one report; with --file use --json-lines");
    return analyseFile(values.file, concurrencyOf(values.concurrency), values["json-lines"], mode);
  }
  if (positionals.length !== 1) throw new UsageError("analyze takes exactly one URL");
  if (values["json-lines"] !== undefined || values.concurrency !== undefined) {
    throw new UsageError("--json-lines and --concurrency go with --file");
  }
  const gate: GateSettings = {
    baseline: values.baseline === undefined ? undefined : loadBaseline(values.baseline),
    budget: values.budget === undefined ? undefined : loadBudget(values.budget),
    junit: values.junit,
  };
  return analyseOne(positionals[0] as string, Boolean(values.json), gate, mode);
}

function modeOf(raw: string | undefined): AnalysisMode {
  if (raw === undefined || raw === "raw") return "raw";
  if (raw === "rendered") return "rendered";
  throw new UsageError(`--mode must be raw or rendered, got "${raw}"`);
}

/**
 * The analyzer for the mode; rendered mode starts Chromium once first, and stops before any page is fetched
 * when Chromium is missing or will not start (exit 2, the problem named). Its browser pool renders
 * `concurrency` pages at once (renders-at-once.ts).
 */
async function analyzerFor(mode: AnalysisMode, concurrency = 1): Promise<Analyzer> {
  const analyzer = new Analyzer(commandAnalysisConfig(concurrency));
  if (mode !== "rendered") return analyzer;
  const chromium = await analyzer.chromium.probe();
  if (chromium.problem) {
    await analyzer.close();
    throw renderingUnavailable(chromium.problem);
  }
  return analyzer;
}

/** A setting of this machine, not of the command line: printed as a configuration error (exit 2). */
function renderingUnavailable(problem: string): ConfigError {
  return new ConfigError(`--mode rendered is unavailable: ${problem}`);
}

/** The regression gate asked for on the command line; files are read and validated before the page is fetched. */
interface GateSettings {
  baseline: Baseline | undefined;
  budget: Budget | undefined;
  junit: string | undefined;
}

function parse(args: string[]) {
  return parseArgs({
    args,
    allowPositionals: true,
    options: {
      json: { type: "boolean" },
      file: { type: "string" },
      concurrency: { type: "string" },
      "json-lines": { type: "string" },
      mode: { type: "string" },
      baseline: { type: "string" },
      budget: { type: "string" },
      junit: { type: "string" },
    },
  });
}

function concurrencyOf(raw: string | undefined): number {
  if (raw === undefined) return 4;
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 64) {
    throw new UsageError(`--concurrency must be a whole number from 1 to 64, got "${raw}"`);
  }
  return Number(raw);
}

async function analyseOne(
  url: string,
  json: boolean,
  gate: GateSettings,
  mode: AnalysisMode,
): Promise<number> {
  const analyzer = await analyzerFor(mode);
  let report: AnalysisReport;
  try {
    ({ report } = await analyzer.analyse(url, { mode }));
  } catch (error) {
    // Chromium that stopped starting after the check: the same refusal.
    if (error instanceof ChromiumUnavailable) throw renderingUnavailable(error.problem);
    process.stderr.write(`pagegrade: ${url}: ${reasonOf(error)}\n`);
    return 1;
  } finally {
    await analyzer.close();
  }
  // With --json, stdout stays the report object (the next baseline) and the gate's verdict goes to stderr.
  const gateOut = json ? process.stderr : process.stdout;
  const palette = paletteFor(gateOut);
  process.stdout.write(
    json
      ? `${JSON.stringify(reportJson(report), null, 2)}\n`
      : renderReport(report, paletteFor(process.stdout)),
  );
  const verdicts: GateCase[] = [];
  if (gate.baseline !== undefined) {
    if (gate.baseline.url !== report.url) {
      gateOut.write(palette.dim(`\nNote: the baseline is a report of ${safe(gate.baseline.url)}\n`));
    }
    // A saved report has no stored ids: both sides are 0, which the command never prints.
    const diff = diffAnalyses(0, gate.baseline.side, { ...report, id: 0 });
    gateOut.write(`\n${renderDiff(diff, palette)}`);
    verdicts.push({
      name: "no check regressed against the baseline",
      problems: isRegression(diff)
        ? diff.checks
            .filter((check) => check.change === "regressed")
            .map((check) => `${check.id} regressed: ${check.from} → ${check.to}`)
        : [],
    });
  }
  if (gate.budget !== undefined) {
    const breaches = budgetBreaches(gate.budget, report);
    gateOut.write(
      breaches.length === 0
        ? `\n${palette.green("Within the budget.")}\n`
        : `\n${palette.bold("Budget breached:")}\n${breaches.map((line) => `  ${palette.red("✗")} ${line}\n`).join("")}`,
    );
    verdicts.push({ name: "the report keeps within the budget", problems: breaches });
  }
  if (gate.junit !== undefined) {
    try {
      writeFileSync(gate.junit, junitXml(report, verdicts));
    } catch (error) {
      process.stderr.write(
        `pagegrade: cannot write the JUnit file "${gate.junit}": ${(error as Error).message}\n`,
      );
      return 2;
    }
  }
  return verdicts.some((verdict) => verdict.problems.length > 0) ? 1 : 0;
}

async function analyseFile(
  path: string,
  concurrency: number,
  jsonLines: string | undefined,
  mode: AnalysisMode,
): Promise<number> {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    throw new UsageError(`cannot read the file "${path}"`);
  }
  const urls = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"));
  const out = jsonLines === undefined || jsonLines === "-" ? process.stdout : createWriteStream(jsonLines);
  const progress = new ProgressBar(process.stderr, urls.length);
  const analyzer = await analyzerFor(mode, concurrency);
  let failed = 0;
  let next = 0;
  const worker = async () => {
    while (next < urls.length) {
      const url = urls[next++] as string;
      let line: string;
      try {
        const { report } = await analyzer.analyse(url, { mode });
        line =
          jsonLines === undefined
            ? `${report.result}\t${report.score}\t${url}`
            : JSON.stringify(reportJson(report));
        progress.tick(true);
      } catch (error) {
        failed++;
        line =
          jsonLines === undefined
            ? `error\t-\t${url}\t${reasonOf(error)}`
            : JSON.stringify({
                url,
                error: {
                  reason:
                    analysisFailureOf(error)?.reason ??
                    (error instanceof InvalidUrl ? "invalid-url" : "internal-error"),
                  message: reasonOf(error),
                },
              });
        progress.tick(false);
      }
      out.write(`${line}\n`);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(concurrency, urls.length) }, worker));
  } finally {
    progress.finish();
    await analyzer.close();
    if (out !== process.stdout) await new Promise<void>((resolve) => out.end(() => resolve()));
  }
  process.stderr.write(`${urls.length - failed} analysed, ${failed} failed\n`);
  return failed > 0 ? 1 : 0;
}

/** What a line says of a page that could not be analysed: the engine's failure message, or a generic one. */
function reasonOf(error: unknown): string {
  const failure = analysisFailureOf(error);
  if (failure) return failure.message;
  if (error instanceof InvalidUrl) return error.message;
  return "The page could not be analysed.";
}
