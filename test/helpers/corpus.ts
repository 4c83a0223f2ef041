/**
 * The shared corpus of real web pages (../shared/corpus/pages beside the repository, or PAGEGRADE_CORPUS_DIR;
 * its sibling readability/, or PAGEGRADE_READABILITY_DIR), served from a local HTTP server on 127.0.0.1 for
 * end-to-end tests and benchmarks. Pages are read from there at run time, never copied into the project.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { type LocalServer, startServer } from "./local-server.js";

export const corpusDir = resolve(
  process.env.PAGEGRADE_CORPUS_DIR ??
    join(fileURLToPath(new URL("../../..", import.meta.url)), "shared", "corpus", "pages"),
);

/** Set by .ci/run: a missing corpus then fails the corpus tests instead of skipping them. */
export const corpusRequired = process.env.PAGEGRADE_REQUIRE_CORPUS === "1";

/** Why the corpus tests cannot run here, or undefined when the corpus is present. */
export const corpusMissing = existsSync(corpusDir)
  ? undefined
  : `the shared corpus is not at ${corpusDir} (it lives in ../shared/corpus beside the repository; set PAGEGRADE_CORPUS_DIR to point elsewhere)`;

/**
 * True when the corpus tests may be skipped: the corpus is missing and not required. Where it is required
 * (PAGEGRADE_REQUIRE_CORPUS=1, as in CI), a test guarded by this runs and fails on the missing files.
 */
export const corpusSkippable = corpusMissing !== undefined && !corpusRequired;

/** The second set of pages, beside the first one unless PAGEGRADE_READABILITY_DIR says otherwise. */
export const readabilityDir = resolve(
  process.env.PAGEGRADE_READABILITY_DIR ?? join(corpusDir, "..", "readability"),
);

/** Lighthouse's verdicts on both sets, one row per page path relative to the corpus folder. */
export const lighthouseVerdictsPath = join(corpusDir, "..", "lighthouse-verdicts.tsv");

export interface CorpusPage {
  name: string;
  html: Buffer;
}

/** Every .html page of a corpus folder; names are prefixed (e.g. "readability/") when given a prefix. */
export function loadCorpus(dir = corpusDir, prefix = ""): CorpusPage[] {
  if (!existsSync(dir)) {
    throw new Error(
      `Cannot load the corpus: nothing at ${dir} (set PAGEGRADE_CORPUS_DIR or PAGEGRADE_READABILITY_DIR).`,
    );
  }
  return readdirSync(dir)
    .filter((name) => name.endsWith(".html"))
    .sort()
    .map((name) => ({ name: `${prefix}${name}`, html: readFileSync(join(dir, name)) }));
}

/** Both sets of the shared corpus (300 pages): pages/ as they are, readability/ under "readability/". */
export function loadWholeCorpus(): CorpusPage[] {
  return [...loadCorpus(), ...loadCorpus(readabilityDir, "readability/")];
}

/** Serves every page at /<file name> as text/html; everything else (robots.txt, …) is a 404. */
export function serveCorpus(pages: CorpusPage[]): Promise<LocalServer> {
  const byPath = new Map(pages.map((page) => [`/${page.name}`, page.html]));
  return startServer(
    {},
    {
      fallback: (request, response) => {
        const body = byPath.get(new URL(request.url ?? "/", "http://x").pathname);
        if (!body) {
          response.statusCode = 404;
          response.setHeader("content-type", "text/plain");
          response.end("not found");
          return;
        }
        response.setHeader("content-type", "text/html");
        response.end(body);
      },
    },
  );
}
