/**
 * `pagegrade analyze`: one URL printed as a readable report (or --json), or many URLs from a file analysed
 * concurrently into JSON Lines, with a progress bar when stderr is a terminal.
 */
import { createWriteStream, readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { type AnalysisReport, Analyzer } from "../analysis/analyse.js";
import { FetchFailure } from "../analysis/fetch/fetch-failure.js";
import { InvalidUrl } from "../analysis/submitted-url.js";
import { loadAnalysisConfig } from "../config.js";
import { paletteFor } from "./colour.js";
import { ProgressBar } from "./progress-bar.js";
import { renderReport } from "./render-report.js";
import { UsageError } from "./usage.js";

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
  if (values.file !== undefined) {
    if (positionals.length > 0) throw new UsageError("give either a URL or --file, not both");
    if (values.json) throw new UsageError("--json prints one report; with --file use --json-lines");
    return analyseFile(values.file, concurrencyOf(values.concurrency), values["json-lines"]);
  }
  if (positionals.length !== 1) throw new UsageError("analyze takes exactly one URL");
  if (values["json-lines"] !== undefined || values.concurrency !== undefined) {
    throw new UsageError("--json-lines and --concurrency go with --file");
  }
  return analyseOne(positionals[0] as string, Boolean(values.json));
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

async function analyseOne(url: string, json: boolean): Promise<number> {
  const analyzer = new Analyzer(loadAnalysisConfig());
  try {
    const { report } = await analyzer.analyse(url);
    process.stdout.write(
      json
        ? `${JSON.stringify(reportJson(report), null, 2)}\n`
        : renderReport(report, paletteFor(process.stdout)),
    );
    return 0;
  } catch (error) {
    process.stderr.write(`pagegrade: ${url}: ${reasonOf(error)}\n`);
    return 1;
  } finally {
    await analyzer.close();
  }
}

async function analyseFile(
  path: string,
  concurrency: number,
  jsonLines: string | undefined,
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
  const analyzer = new Analyzer(loadAnalysisConfig());
  let failed = 0;
  let next = 0;
  const worker = async () => {
    while (next < urls.length) {
      const url = urls[next++] as string;
      let line: string;
      try {
        const { report } = await analyzer.analyse(url);
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
                  reason: error instanceof FetchFailure ? error.reason : "invalid-url",
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

function reasonOf(error: unknown): string {
  if (error instanceof FetchFailure || error instanceof InvalidUrl) return error.message;
  return "The page could not be analysed.";
}
