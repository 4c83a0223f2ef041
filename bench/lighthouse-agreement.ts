/**
 * Agreement with Google Lighthouse's SEO verdicts on the 300 corpus pages (pages/ and readability/), served from
 * 127.0.0.1 the way Lighthouse saw them (HTTP/1.1, text/html, no compression, /robots.txt answering 404) and
 * analysed in the given mode. For each SEO audit the two tools share, it prints how often they agree, and writes
 * every disagreement (page, audit, both verdicts, pagegrade's message and evidence) to
 * bench-output/lighthouse-disagreements[-rendered].md, grouped by the cause that explains it. Used by
 * `npm run bench:lighthouse` (raw mode) and `npm run bench:render` (rendered mode: what Lighthouse judged is the
 * rendered document), and `npm run bench:lighthouse -- --mode rendered` (rendered mode alone). Each disagreement's
 * cause is checked on the page (lighthouse-causes.ts): the page is opened in Chromium and judged by Lighthouse's
 * own rules, and the report lists the element or text that makes the tools differ, or "unexplained".
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Analyzer } from "../src/analysis/analyse.js";
import type { CheckResults } from "../src/analysis/judge.js";
import type { Anchor } from "../src/analysis/snapshot.js";
import { loadAnalysisConfig } from "../src/config.js";
import type { AnalysisMode } from "../src/vocabulary.js";
import {
  type CorpusPage,
  corpusDir,
  lighthouseVerdictsPath,
  loadCorpus,
  readabilityDir,
  serveCorpus,
} from "../test/helpers/corpus.js";
import { type Disagreement as Case, explain, unexplained } from "./lighthouse-causes.js";
import { PageProbe } from "./lighthouse-probe.js";
import { loadLighthouseRules } from "./lighthouse-rules.js";

type Verdict = "pass" | "fail";

/** Lighthouse audit → how pagegrade's results say the same thing failed. */
const mapping: Array<{ audit: string; failed: (results: CheckResults) => boolean; checks: string[] }> = [
  { audit: "document-title", checks: ["title"], failed: (r) => r.title?.status === "fail" },
  {
    audit: "meta-description",
    checks: ["meta-description"],
    failed: (r) => r["meta-description"]?.status === "fail",
  },
  { audit: "image-alt", checks: ["image-alt"], failed: (r) => r["image-alt"]?.status === "fail" },
  {
    audit: "crawlable-anchors",
    checks: ["crawlable-links"],
    failed: (r) => r["crawlable-links"]?.status === "fail",
  },
  {
    audit: "link-text",
    checks: ["link-text"],
    failed: (r) => r["link-text"]?.status === "warn" || r["link-text"]?.status === "fail",
  },
  { audit: "canonical", checks: ["canonical"], failed: (r) => r.canonical?.status === "fail" },
  { audit: "hreflang", checks: ["hreflang"], failed: (r) => r.hreflang?.status === "fail" },
  {
    audit: "is-crawlable",
    checks: ["indexable", "robots-txt"],
    failed: (r) => r.indexable?.status === "fail" || r["robots-txt"]?.status === "fail",
  },
];

interface Disagreement {
  page: string;
  audit: string;
  lighthouse: Verdict;
  pagegrade: Verdict;
  cause: string;
  evidence: string[];
  details: string[];
}

/** Analyses the corpus in `mode`, prints the agreement per audit and overall, writes the disagreements. */
export async function agreementWithLighthouse(
  mode: AnalysisMode,
  concurrency: number,
): Promise<{ agreed: number; compared: number; share: number }> {
  const pages: CorpusPage[] = [
    ...loadCorpus(corpusDir, "pages/"),
    ...loadCorpus(readabilityDir, "readability/"),
  ];
  const verdicts = readVerdicts(lighthouseVerdictsPath);
  const server = await serveCorpus(pages);
  const analyzer = new Analyzer(
    loadAnalysisConfig({
      ...process.env,
      PAGEGRADE_ALLOW_PRIVATE_NETWORKS: "1",
      // Benchmarks may run as root, where Chromium cannot have its sandbox; servers keep it on.
      PAGEGRADE_CHROMIUM_SANDBOX: process.getuid?.() === 0 ? "0" : "1",
    }),
  );

  const results = new Map<string, CheckResults>();
  const seen = new Map<string, { finalUrl: string; anchors: Anchor[] }>();
  const failures: string[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < pages.length) {
        const page = pages[next++] as CorpusPage;
        try {
          const { report, document } = await analyzer.analyse(`${server.url}/${page.name}`, {
            mode,
            keepDocument: true,
          });
          results.set(page.name, report.results);
          seen.set(page.name, { finalUrl: report.final_url, anchors: document?.anchors ?? [] });
        } catch (error) {
          // A page pagegrade cannot analyse (one that timed out included) is counted as a disagreement on
          // every audit Lighthouse judged there, and listed below: leaving it out would flatter the figure.
          failures.push(`${page.name} (${(error as Error).message})`);
        }
      }
    }),
  );
  const found: Array<Omit<Case, "facts" | "rawResults"> & { page: string; details: string[] }> = [];
  const table: Array<{
    audit: string;
    compared: number;
    agreed: number;
    skipped: number;
    unanalysed: number;
  }> = [];
  for (const { audit, checks, failed } of mapping) {
    const row = { audit, compared: 0, agreed: 0, skipped: 0, unanalysed: 0 };
    for (const page of pages) {
      const theirs = verdicts.get(page.name)?.[audit];
      const ours = results.get(page.name);
      // Lighthouse's "error" (the audit could not run) and pages it never saw give nothing to compare with.
      if (theirs === undefined || theirs === "error") {
        row.skipped++;
        continue;
      }
      row.compared++;
      if (ours === undefined) {
        row.unanalysed++;
        continue;
      }
      const lighthouse: Verdict = theirs === "fail" ? "fail" : "pass"; // "na" counts as pass
      const pagegrade: Verdict = failed(ours) ? "fail" : "pass";
      if (lighthouse === pagegrade) {
        row.agreed++;
        continue;
      }
      found.push({
        page: page.name,
        audit,
        lighthouse,
        pagegrade,
        results: ours,
        finalUrl: seen.get(page.name)?.finalUrl ?? `${server.url}/${page.name}`,
        anchors: seen.get(page.name)?.anchors ?? [],
        details: checks.map((id) => {
          const result = ours[id];
          const items = result?.details?.items ?? [];
          const evidence = items
            .slice(0, 5)
            .map((item) => `    - ${JSON.stringify(item)}`)
            .join("\n");
          return `  - ${id}: ${result?.status} — ${result?.message}${evidence ? `\n${evidence}` : ""}`;
        }),
      });
    }
    table.push(row);
  }

  // Each disagreeing page opened once in Chromium, and in rendered mode analysed raw too, to check causes on it.
  const rules = await loadLighthouseRules();
  const probe = await PageProbe.start();
  const facts = new Map<string, Case["facts"]>();
  const rawResults = new Map<string, CheckResults>();
  for (const page of new Set(found.map((entry) => entry.page))) {
    try {
      facts.set(page, await probe.inspect(`${server.url}/${page}`));
    } catch (error) {
      facts.set(page, { error: (error as Error).message });
    }
    if (mode !== "raw") {
      const { report } = await analyzer
        .analyse(`${server.url}/${page}`, { mode: "raw" })
        .catch(() => ({ report: null }));
      if (report) rawResults.set(page, report.results);
    }
  }
  await probe.close();
  await analyzer.close();
  await server.close();
  const disagreements: Disagreement[] = found.map((entry) => {
    const { cause, evidence } = explain(
      {
        ...entry,
        facts: facts.get(entry.page) ?? { error: "not opened" },
        rawResults: rawResults.get(entry.page) ?? null,
      },
      rules,
    );
    return {
      page: entry.page,
      audit: entry.audit,
      lighthouse: entry.lighthouse,
      pagegrade: entry.pagegrade,
      cause,
      evidence,
      details: entry.details,
    };
  });

  const pct = (agreed: number, compared: number) =>
    compared === 0 ? "  n/a" : `${((100 * agreed) / compared).toFixed(1).padStart(5)} %`;
  console.log(`agreement with Lighthouse: ${pages.length} corpus pages, ${mode} mode`);
  if (failures.length > 0) console.log(`not analysed (${failures.length}): ${failures.join(", ")}`);
  console.log(
    `${"audit".padEnd(20)} ${"agree".padStart(7)} ${"of".padStart(5)}  share    (lighthouse error) [not analysed by pagegrade: counted as disagreeing]`,
  );
  for (const row of table) {
    console.log(
      `${row.audit.padEnd(20)} ${String(row.agreed).padStart(7)} ${String(row.compared).padStart(5)}  ${pct(row.agreed, row.compared)}  (${row.skipped}) [${row.unanalysed}]`,
    );
  }
  const agreed = table.reduce((sum, row) => sum + row.agreed, 0);
  const compared = table.reduce((sum, row) => sum + row.compared, 0);
  console.log(
    `${"overall".padEnd(20)} ${String(agreed).padStart(7)} ${String(compared).padStart(5)}  ${pct(agreed, compared)}`,
  );

  const byCause = new Map<string, Disagreement[]>();
  for (const entry of disagreements) byCause.set(entry.cause, [...(byCause.get(entry.cause) ?? []), entry]);
  const outputDir = new URL("../bench-output/", import.meta.url).pathname;
  mkdirSync(outputDir, { recursive: true });
  const report = [
    `# Disagreements with Lighthouse (${disagreements.length})`,
    "",
    ...[...byCause.entries()]
      .sort((a, b) => b[1].length - a[1].length)
      .flatMap(([cause, entries]) => [
        `## ${cause} (${entries.length})`,
        "",
        ...entries.flatMap((entry) => [
          `- ${entry.page} · ${entry.audit}: Lighthouse ${entry.lighthouse}, pagegrade ${entry.pagegrade}`,
          ...entry.evidence.map((line) => `  - evidence: ${line}`),
          ...entry.details,
        ]),
        "",
      ]),
  ].join("\n");
  const reportPath = join(outputDir, `lighthouse-disagreements${mode === "raw" ? "" : `-${mode}`}.md`);
  writeFileSync(reportPath, report);
  console.log(`${disagreements.length} disagreements by cause:`);
  for (const [cause, entries] of [...byCause.entries()].sort((a, b) => b[1].length - a[1].length))
    console.log(`  ${String(entries.length).padStart(3)}  ${cause}`);
  const open = byCause.get(unexplained)?.length ?? 0;
  console.log(`${open} unexplained; details and evidence in ${reportPath}`);
  return { agreed, compared, share: compared === 0 ? 0 : agreed / compared };
}

export function readVerdicts(path: string): Map<string, Record<string, string>> {
  const [header, ...rows] = readFileSync(path, "utf8").trim().split("\n");
  const columns = (header ?? "").split("\t");
  return new Map(
    rows.map((row) => {
      const cells = row.split("\t");
      return [cells[0] ?? "", Object.fromEntries(columns.map((column, i) => [column, cells[i] ?? ""]))];
    }),
  );
}
