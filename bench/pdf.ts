/**
 * `npm run bench:pdf`: what a report PDF costs. Analyses corpus pages (served from 127.0.0.1; BENCH_PAGES=N for
 * the first N, default 30), prints each report as a PDF with the service's PdfRenderer (one at a time, no cache
 * hits: every document differs), and prints per PDF the time (median, p95) against a one-line document printed
 * by the same browser in the same run (Chromium's fixed cost per PDF), the size and the number of A4 pages.
 * Also the time to build the print view and the first PDF's time, browser launch included.
 */
import { Analyzer } from "../src/analysis/analyse.js";
import { loadAnalysisConfig } from "../src/config.js";
import { PdfRenderer } from "../src/web/pdf/pdf-renderer.js";
import { reportPdf } from "../src/web/pdf/report-pdf.js";
import type { ReportView } from "../src/web/views/report-page.js";
import { reportPrintDocument } from "../src/web/views/report-print.js";
import { loadCorpus, serveCorpus } from "../test/helpers/corpus.js";

const wanted = Number(process.env.BENCH_PAGES ?? 30);
const corpus = loadCorpus().slice(0, wanted);
const server = await serveCorpus(corpus);
const analyzer = new Analyzer(loadAnalysisConfig({ PAGEGRADE_ALLOW_PRIVATE_NETWORKS: "1" }));
const views: ReportView[] = [];
for (const page of corpus) {
  try {
    const { report } = await analyzer.analyse(`${server.url}/${page.name}`);
    views.push({ id: views.length + 1, ...report });
  } catch {
    // A page the engine refuses (not HTML, too large) has no report to print.
  }
}
await server.close();
await analyzer.close();

const renderer = new PdfRenderer({
  executablePath: process.env.PAGEGRADE_CHROMIUM_PATH ?? "/usr/bin/chromium",
  sandbox: process.env.PAGEGRADE_CHROMIUM_SANDBOX !== "0",
  maxConcurrent: 1,
  cacheBytes: 0,
});
const margin = { top: "20mm", right: "14mm", bottom: "16mm", left: "14mm" };
const timed = async <T>(work: () => Promise<T>): Promise<[T, number]> => {
  const started = performance.now();
  const result = await work();
  return [result, performance.now() - started];
};

const [, firstMs] = await timed(() =>
  renderer.render({
    html: "<p>warm-up</p>",
    headerTemplate: "<span></span>",
    footerTemplate: "<span></span>",
    margin,
  }),
);
const baseline: number[] = [];
const reportMs: number[] = [];
const sizes: number[] = [];
const pages: number[] = [];
const buildMs: number[] = [];
for (const [index, view] of views.entries()) {
  const [, blankMs] = await timed(() =>
    renderer.render({
      html: `<p>one line ${index}</p>`,
      headerTemplate: "<span></span>",
      footerTemplate: "<span></span>",
      margin,
    }),
  );
  baseline.push(blankMs);
  const built = performance.now();
  reportPrintDocument(view, "");
  buildMs.push(performance.now() - built);
  const [pdf, ms] = await timed(() => reportPdf(renderer, view));
  reportMs.push(ms);
  sizes.push(pdf.length);
  pages.push(pdf.toString("latin1").match(/\/Type\s*\/Page(?!s)/g)?.length ?? 0);
}
await renderer.close();

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
};
const median = (values: number[]) => quantile(values, 0.5);
console.log(`bench:pdf on ${views.length} corpus reports, one PDF at a time`);
console.log(
  `  report PDF: ${median(reportMs).toFixed(0)} ms median, ${quantile(reportMs, 0.95).toFixed(0)} ms p95; ` +
    `one-line PDF (baseline): ${median(baseline).toFixed(0)} ms median; ratio ${(median(reportMs) / median(baseline)).toFixed(2)}×`,
);
console.log(
  `  size: ${(median(sizes) / 1024).toFixed(0)} KiB median, ${(quantile(sizes, 0.95) / 1024).toFixed(0)} KiB p95; ` +
    `pages: ${median(pages)} median, ${quantile(pages, 0.95)} p95`,
);
console.log(
  `  print view built in ${median(buildMs).toFixed(2)} ms median; first PDF with the browser's launch: ${firstMs.toFixed(0)} ms`,
);
