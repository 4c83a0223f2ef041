import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Analyzer } from "../../src/analysis/analyse.js";
import { checks } from "../../src/analysis/checks/index.js";
import { loadAnalysisConfig } from "../../src/config.js";
import {
  type CorpusPage,
  corpusMissing,
  corpusRequired,
  loadCorpus,
  serveCorpus,
} from "../helpers/corpus.js";
import type { LocalServer } from "../helpers/local-server.js";

// Without the corpus (a clone on its own) these tests are skipped, and say so; CI requires it.
if (corpusMissing && corpusRequired) throw new Error(`The corpus is required here: ${corpusMissing}.`);
if (corpusMissing) console.warn(`Corpus tests skipped: ${corpusMissing}.`);

/** Every real page of the corpus, served locally, is analysed completely: no crash, no hang, no unexplained error. */
describe.skipIf(corpusMissing !== undefined)(
  corpusMissing ? `the corpus end to end: skipped, ${corpusMissing}` : "the corpus end to end",
  () => {
    let pages: CorpusPage[];
    let server: LocalServer;
    let analyzer: Analyzer;

    beforeAll(async () => {
      pages = loadCorpus();
      server = await serveCorpus(pages);
      analyzer = new Analyzer(loadAnalysisConfig({ PAGEGRADE_ALLOW_PRIVATE_NETWORKS: "1" }));
    });

    afterAll(async () => {
      await analyzer?.close();
      await server?.close();
    });

    it("analyses all 170 pages", { timeout: 120_000 }, async () => {
      expect(pages.length).toBe(170);
      const problems: string[] = [];
      const results: string[] = [];
      const scores = new Set<number>();
      const gated: string[] = [];
      let next = 0;
      const worker = async () => {
        while (next < pages.length) {
          const page = pages[next++] as CorpusPage;
          try {
            const { report } = await analyzer.analyse(`${server.url}/${page.name}`);
            expect(Object.keys(report.results)).toEqual(checks.map((check) => check.id));
            expect(report.score).toBeGreaterThanOrEqual(0);
            expect(report.score).toBeLessThanOrEqual(100);
            results.push(report.result);
            scores.add(report.score);
            if (report.summary.gates.includes("https")) gated.push(page.name);
            for (const [id, result] of Object.entries(report.results)) {
              // Every host probe answers on the local server, so nothing has a reason to be "could not check".
              if (result.status === "error") problems.push(`${page.name} ${id}: ${result.message}`);
              expect(result.message.length).toBeGreaterThan(0);
              expect(result.details?.items.length ?? 0).toBeLessThanOrEqual(50);
            }
          } catch (error) {
            problems.push(`${page.name}: ${(error as Error).message}`);
          }
        }
      };
      await Promise.all(Array.from({ length: 4 }, worker));
      expect(problems).toEqual([]);
      expect(results).toHaveLength(170);
      // Served here over plain HTTP, every page fails `https`, a gate: none can be good (at most 79).
      expect(gated).toHaveLength(170);
      expect(results.filter((result) => result === "good")).toEqual([]);
      // Real pages are a mix: the scorer must not give all of them one score, nor nearly so.
      expect(scores.size).toBeGreaterThan(10);
    });
  },
);
