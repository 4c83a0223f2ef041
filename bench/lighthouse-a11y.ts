/**
 * `npm run bench:lighthouse-a11y`: agreement of the accessibility checks (rendered mode, axe-core) with
 * Lighthouse 12.8.2's accessibility verdicts on the 300 corpus pages (lighthouse-a11y-verdicts.tsv: pass, fail
 * or na per audit). Pages are served from 127.0.0.1 as for bench:lighthouse and analysed in rendered mode two at
 * once. For each audit Lighthouse scores, it prints how often the verdicts agree on every page Lighthouse judged
 * (a page pagegrade could not analyse or judge, one that timed out included, counts as a disagreement), and writes every disagreement (page, rule, both verdicts, pagegrade's message and failing
 * elements) to bench-output/lighthouse-a11y-disagreements.md; pagegrade's verdicts per page are kept in
 * bench-output/lighthouse-a11y-results.json, and BENCH_A11Y_REUSE=1 compares those again without rendering.
 * BENCH_PAGES=N takes a deterministic subset of N pages spread evenly over the list.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Analyzer } from "../src/analysis/analyse.js";
import { accessibilityCheckId } from "../src/analysis/checks/accessibility/axe-checks.js";
import { lighthouseAxeRules } from "../src/analysis/checks/accessibility/lighthouse-rules.js";
import type { CheckResults } from "../src/analysis/judge.js";
import { loadAnalysisConfig } from "../src/config.js";
import {
  type CorpusPage,
  corpusDir,
  loadCorpus,
  readabilityDir,
  serveCorpus,
} from "../test/helpers/corpus.js";
import { readVerdicts } from "./lighthouse-agreement.js";

type Judged = { status: string; message: string; items: unknown[] };

const verdictsPath = join(corpusDir, "..", "lighthouse-a11y-verdicts.tsv");
const outputDir = new URL("../bench-output/", import.meta.url).pathname;
const resultsPath = join(outputDir, "lighthouse-a11y-results.json");
const concurrency = 2;

const verdicts = readVerdicts(verdictsPath);
const allPages: CorpusPage[] = [
  ...loadCorpus(corpusDir, "pages/"),
  ...loadCorpus(readabilityDir, "readability/"),
].filter((page) => verdicts.has(page.name));
const wanted = Number(process.env.BENCH_PAGES ?? allPages.length);
const pages =
  wanted >= allPages.length
    ? allPages
    : Array.from(
        { length: wanted },
        (_v, index) => allPages[Math.floor((index * allPages.length) / wanted)] as CorpusPage,
      );

mkdirSync(outputDir, { recursive: true });
const ours = new Map<string, Record<string, Judged>>();
const failures: string[] = [];
if (process.env.BENCH_A11Y_REUSE === "1" && existsSync(resultsPath)) {
  for (const [page, results] of Object.entries(JSON.parse(readFileSync(resultsPath, "utf8")))) {
    ours.set(page, results as Record<string, Judged>);
  }
} else {
  const server = await serveCorpus(pages);
  const analyzer = new Analyzer(
    loadAnalysisConfig({
      ...process.env,
      PAGEGRADE_ALLOW_PRIVATE_NETWORKS: "1",
      // Benchmarks may run as root, where Chromium cannot have its sandbox; servers keep it on.
      PAGEGRADE_CHROMIUM_SANDBOX: process.getuid?.() === 0 ? "0" : "1",
    }),
  );
  let next = 0;
  let done = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < pages.length) {
        const page = pages[next++] as CorpusPage;
        try {
          const { report } = await analyzer.analyse(`${server.url}/${page.name}`, { mode: "rendered" });
          ours.set(page.name, accessibilityResults(report.results));
        } catch (error) {
          failures.push(`${page.name} (${(error as Error).message})`);
        }
        done++;
        if (done % 25 === 0) {
          console.log(
            `${done}/${pages.length} pages, ${((performance.now() - started) / 1000).toFixed(0)} s`,
          );
        }
      }
    }),
  );
  await analyzer.close();
  await server.close();
  writeFileSync(resultsPath, JSON.stringify(Object.fromEntries(ours), null, 1));
}

const table: Array<{ rule: string; compared: number; agreed: number; skipped: number; unjudged: number }> =
  [];
const disagreements: string[] = [];
for (const { rule } of lighthouseAxeRules) {
  const row = { rule, compared: 0, agreed: 0, skipped: 0, unjudged: 0 };
  for (const page of pages) {
    const theirs = verdicts.get(page.name)?.[rule];
    const result = ours.get(page.name)?.[accessibilityCheckId(rule)];
    // Lighthouse's error (or a page it never saw) gives nothing to compare with. Where pagegrade could not judge
    // (the page not analysed, timed out, or the check an error) and Lighthouse did, it counts as a disagreement:
    // every page is counted.
    if (!theirs || theirs === "error") {
      row.skipped++;
      continue;
    }
    if (!result || result.status === "error") {
      row.compared++;
      row.unjudged++;
      disagreements.push(
        `- ${page.name} · ${rule}: Lighthouse ${theirs}, pagegrade could not judge — ${result?.message ?? "the page was not analysed"}`,
      );
      continue;
    }
    row.compared++;
    if (theirs === result.status) {
      row.agreed++;
      continue;
    }
    disagreements.push(
      [
        `- ${page.name} · ${rule}: Lighthouse ${theirs}, pagegrade ${result.status} — ${result.message}`,
        ...result.items.slice(0, 5).map((item) => `  - ${JSON.stringify(item)}`),
      ].join("\n"),
    );
  }
  table.push(row);
}

const pct = (agreed: number, compared: number) =>
  compared === 0 ? "  n/a" : `${((100 * agreed) / compared).toFixed(1).padStart(5)} %`;
console.log(`accessibility agreement with Lighthouse 12.8.2: ${pages.length} corpus pages, rendered mode`);
if (failures.length > 0) console.log(`not analysed (${failures.length}): ${failures.join(", ")}`);
console.log(
  `${"rule".padEnd(28)} ${"agree".padStart(6)} ${"of".padStart(5)}  share    (lighthouse error) [pagegrade could not judge: counted as disagreeing]`,
);
for (const row of table) {
  console.log(
    `${row.rule.padEnd(28)} ${String(row.agreed).padStart(6)} ${String(row.compared).padStart(5)}  ${pct(row.agreed, row.compared)}  (${row.skipped}) [${row.unjudged}]`,
  );
}
const agreed = table.reduce((sum, row) => sum + row.agreed, 0);
const compared = table.reduce((sum, row) => sum + row.compared, 0);
console.log(
  `${"overall".padEnd(28)} ${String(agreed).padStart(6)} ${String(compared).padStart(5)}  ${pct(agreed, compared)}`,
);
const reportPath = join(outputDir, "lighthouse-a11y-disagreements.md");
writeFileSync(
  reportPath,
  `# Accessibility disagreements with Lighthouse (${disagreements.length})\n\n${disagreements.join("\n")}\n`,
);
console.log(`${disagreements.length} disagreements in ${reportPath}`);
process.exit(0);

/** The accessibility checks of a report: status, message and evidence. */
function accessibilityResults(results: CheckResults): Record<string, Judged> {
  return Object.fromEntries(
    Object.entries(results)
      .filter(([id]) => id.startsWith("a11y-"))
      .map(([id, result]) => [
        id,
        { status: result.status, message: result.message, items: result.details?.items ?? [] },
      ]),
  );
}
