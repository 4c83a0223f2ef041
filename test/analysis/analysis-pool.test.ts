import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { getPriority } from "node:os";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Analyzer } from "../../src/analysis/analyse.js";
import { PageCollector } from "../../src/analysis/collect.js";
import type { CrawlAsk } from "../../src/analysis/crawled-page.js";
import { FetchFailure } from "../../src/analysis/fetch/fetch-failure.js";
import type { CollectedFacts, ParseInput } from "../../src/analysis/page-work.js";
import { AnalysisPool } from "../../src/analysis/pool/analysis-pool.js";
import { FairQueue } from "../../src/analysis/pool/fair-queue.js";
import { InThreadSession, type PageSession } from "../../src/analysis/pool/page-session.js";
import { defaultScoring } from "../../src/analysis/scoring-config.js";
import { loadAnalysisConfig } from "../../src/config.js";
import { type CorpusPage, corpusSkippable, loadCorpus, serveCorpus } from "../helpers/corpus.js";
import { html, type LocalServer, startServer } from "../helpers/local-server.js";

const run = promisify(execFile);

// A time limit no test machine reaches unless the test sets its own.
const settings = (extra: Record<string, string>) =>
  loadAnalysisConfig({
    PAGEGRADE_ALLOW_PRIVATE_NETWORKS: "1",
    PAGEGRADE_ANALYSIS_TIME_LIMIT_MS: "600000",
    ...extra,
  });

/** A page whose parse takes a while: many elements, about 2 MiB. */
const heavyPage = `<!doctype html><html lang="en"><title>Heavy</title><body>${'<p><a href="/x">x</a></p>'.repeat(80_000)}</body></html>`;

/**
 * Runs a page's parse and judging both on the calling thread and in a pool process, from the same bytes and the
 * same collected facts, and keeps what each gave (less the CPU times).
 */
class BothSessions implements PageSession {
  readonly outputs: { here: string[]; there: string[] } = { here: [], there: [] };

  constructor(
    private readonly here: PageSession,
    private readonly there: PageSession,
  ) {}

  async parse(input: ParseInput) {
    const here = await this.here.parse(input);
    const there = await this.there.parse(input);
    this.outputs.here.push(JSON.stringify(here.declaresIcon));
    this.outputs.there.push(JSON.stringify(there.declaresIcon));
    return here;
  }

  async judge(facts: CollectedFacts, crawl: CrawlAsk | null) {
    const here = await this.here.judge(facts, crawl);
    const there = await this.there.judge(facts, crawl);
    const { judgeMs: _hereMs, ...hereOutput } = here;
    const { judgeMs: _thereMs, ...thereOutput } = there;
    this.outputs.here.push(JSON.stringify(hereOutput));
    this.outputs.there.push(JSON.stringify(thereOutput));
    return here;
  }

  release() {
    this.here.release();
    this.there.release();
  }
}

describe.skipIf(corpusSkippable)("the analysis processes and the calling thread agree", () => {
  let pages: CorpusPage[];
  let server: LocalServer;
  let pool: AnalysisPool;
  let collector: PageCollector;

  beforeAll(async () => {
    // Every 6th page of the corpus: small and large pages, several languages and charsets.
    pages = loadCorpus().filter((_page, index) => index % 6 === 0);
    server = await serveCorpus(pages);
    pool = new AnalysisPool({
      processes: 1,
      timeLimitMs: 600_000,
      memoryLimitMb: 512,
      scoring: defaultScoring,
    });
    collector = new PageCollector(settings({}));
  });

  afterAll(async () => {
    await pool?.close();
    await collector?.close();
    await server?.close();
  });

  it("gives byte-for-byte the same results, score and crawl facts for corpus pages", {
    timeout: 300_000,
  }, async () => {
    expect(pages.length).toBeGreaterThanOrEqual(25);
    for (const page of pages) {
      let both: BothSessions | null = null;
      const { facts, session } = await collector.collect(new URL(`${server.url}/${page.name}`), async () => {
        both = new BothSessions(new InThreadSession(defaultScoring), await pool.session(""));
        return both;
      });
      try {
        await session.judge(facts, {
          project: new URL(server.url).hostname,
          extract: [
            { name: "heading", selector: "h1, h2" },
            { name: "links", selector: "a[href]", attribute: "href" },
            { name: "scripts", regex: '<script[^>]*src="([^"]+)"' },
          ],
        });
      } finally {
        session.release();
      }
      const { here, there } = (both as BothSessions | null)?.outputs ?? { here: [], there: [] };
      expect(here).toHaveLength(2);
      expect(there, page.name).toEqual(here);
    }
    expect(pool.processesRunning).toBe(1);
  });
});

describe("the analysis processes' limits", () => {
  let server: LocalServer;

  beforeAll(async () => {
    server = await startServer({
      "/heavy": html(heavyPage),
      "/small": html(
        '<!doctype html><html lang="en"><title>Small page</title><body><p>Hello.</p></body></html>',
      ),
    });
  });

  afterAll(() => server?.close());

  async function failureOf(promise: Promise<unknown>): Promise<FetchFailure> {
    const error = await promise.then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(FetchFailure);
    return error as FetchFailure;
  }

  it("fails a page past the time limit with too-complex, its process stopped, and goes on", {
    timeout: 120_000,
  }, async () => {
    const analyzer = new Analyzer(
      settings({ PAGEGRADE_ANALYSIS_THREADS: "1", PAGEGRADE_ANALYSIS_TIME_LIMIT_MS: "100" }),
    );
    try {
      const failure = await failureOf(analyzer.analyse(`${server.url}/heavy`));
      expect(failure.reason).toBe("too-complex");
      expect(failure.message).toBe("The page took too long to analyse (more than 0.1 s).");
      expect(analyzer.analysisPool?.processesRunning).toBe(0);
      // The analysis after it goes on (the process's replacement is shown with the memory limit below).
      const { report } = await analyzer.analyse(`${server.url}/small`);
      expect(report.results.title?.status).not.toBe("error");
    } finally {
      await analyzer.close();
    }
  });

  // With worker threads, this page aborted the whole test process 3 times in 6 on Node.js 24 (V8's fatal
  // "Reached heap limit"): a thread's heap limit is best-effort. A process at its limit ends alone.
  it("fails a page that exhausts a process's memory with too-complex, and replaces the process", {
    timeout: 300_000,
  }, async () => {
    // The smallest heap allowed; the heavy page's tree and records do not fit in it.
    const analyzer = new Analyzer(
      settings({
        PAGEGRADE_ANALYSIS_THREADS: "1",
        PAGEGRADE_THREAD_MEMORY_MB: "64",
        PAGEGRADE_THREAD_MIN_BYTES: "0",
      }),
    );
    // 700,000 elements in 4.9 MB: a parse tree several times the heap allowed.
    const bigger = await startServer({
      "/": html(`<!doctype html><html lang="en"><title>Elements</title><body>${"<i></i>".repeat(700_000)}`),
    });
    try {
      const failure = await failureOf(analyzer.analyse(`${bigger.url}/`));
      expect(failure.reason).toBe("too-complex");
      expect(failure.message).toBe("The page needs too much memory to analyse.");
      expect(analyzer.analysisPool?.processesRunning).toBe(0);
      // The next page gets a new process.
      const { report } = await analyzer.analyse(`${server.url}/small`);
      expect(report.results.title?.status).not.toBe("error");
      expect(analyzer.analysisPool?.processesRunning).toBe(1);
    } finally {
      await analyzer.close();
      await bigger.close();
    }
  });

  it("replaces a process resident past PAGEGRADE_ANALYSIS_RECYCLE_MB after its page, and keeps one under it", {
    timeout: 120_000,
  }, async () => {
    const processesAfterTwoPages = async (recycleMb: string) => {
      const analyzer = new Analyzer(
        settings({ PAGEGRADE_ANALYSIS_THREADS: "1", PAGEGRADE_ANALYSIS_RECYCLE_MB: recycleMb }),
      );
      try {
        const seen: Array<{ running: number | undefined; pids: number[] | undefined }> = [];
        for (let page = 0; page < 2; page++) {
          const { report } = await analyzer.analyse(`${server.url}/heavy`);
          expect(report.results.title?.status).not.toBe("error");
          seen.push({
            running: analyzer.analysisPool?.processesRunning,
            pids: analyzer.analysisPool?.processIds,
          });
        }
        return seen;
      } finally {
        await analyzer.close();
      }
    };
    // Every process is resident in more than 1 MB: each page's process ends when its page is done.
    expect(await processesAfterTwoPages("1")).toEqual([
      { running: 0, pids: [] },
      { running: 0, pids: [] },
    ]);
    // 0: never; the one process serves both pages.
    const kept = await processesAfterTwoPages("0");
    expect(kept.map(({ running }) => running)).toEqual([1, 1]);
    expect(kept[0]?.pids).toEqual(kept[1]?.pids);
  });

  it("analyses a small page on the calling thread, a large one in a process", {
    timeout: 120_000,
  }, async () => {
    const analyzer = new Analyzer(
      settings({ PAGEGRADE_ANALYSIS_THREADS: "1", PAGEGRADE_THREAD_MIN_BYTES: "65536" }),
    );
    try {
      await analyzer.analyse(`${server.url}/small`);
      expect(analyzer.analysisPool?.processesRunning).toBe(0);
      await analyzer.analyse(`${server.url}/heavy`);
      expect(analyzer.analysisPool?.processesRunning).toBe(1);
    } finally {
      await analyzer.close();
    }
  });

  it("ends its idle processes when asked (before a crawl's judgement), and starts one again for the next page", {
    timeout: 120_000,
  }, async () => {
    const analyzer = new Analyzer(
      settings({ PAGEGRADE_ANALYSIS_THREADS: "1", PAGEGRADE_THREAD_MIN_BYTES: "0" }),
    );
    try {
      await analyzer.analyse(`${server.url}/small`);
      const [first] = analyzer.analysisPool?.processIds ?? [];
      expect(first).toBeGreaterThan(0);
      analyzer.analysisPool?.endIdle();
      expect(analyzer.analysisPool?.processesRunning).toBe(0);
      const report = (await analyzer.analyse(`${server.url}/small`)).report;
      expect(report.results.title?.status).toBe("pass");
      expect(analyzer.analysisPool?.processIds).not.toContain(first);
      expect(analyzer.analysisPool?.processesRunning).toBe(1);
    } finally {
      await analyzer.close();
    }
  });
});

describe("closing the pool", () => {
  it("settles with an idle process, when nothing else keeps the caller's process alive", async () => {
    const script = fileURLToPath(new URL("../helpers/close-idle-analysis-pool.ts", import.meta.url));
    const { stdout } = await run(process.execPath, ["--import", "tsx", script], { timeout: 60_000 });
    expect(stdout).toBe("closed\n");
  }, 90_000);
});

describe("waiting for a process", () => {
  it("takes turns between owners", async () => {
    const pool = new AnalysisPool({
      processes: 1,
      timeLimitMs: 1000,
      memoryLimitMb: 64,
      scoring: defaultScoring,
    });
    const order: string[] = [];
    const first = await pool.session("alice");
    const waiting = ["alice 2", "alice 3", "alice 4", "bob 1", "carol 1", "bob 2"].map(async (name) => {
      const session = await pool.session(name.split(" ")[0] as string);
      order.push(name);
      session.release();
    });
    expect(pool.queued).toBe(6);
    first.release();
    await Promise.all(waiting);
    expect(order).toEqual(["alice 2", "bob 1", "carol 1", "alice 3", "bob 2", "alice 4"]);
    await pool.close();
  });

  it("a fair queue serves owners round-robin, each in order, and forgets a removed entry", () => {
    const queue = new FairQueue<string>();
    for (const [owner, entry] of [
      ["a", "a1"],
      ["a", "a2"],
      ["b", "b1"],
      ["a", "a3"],
      ["c", "c1"],
    ] as const)
      queue.push(owner, entry);
    expect(queue.remove("c", "c1")).toBe(true);
    expect(queue.remove("c", "c1")).toBe(false);
    const out: string[] = [];
    for (let entry = queue.shift(); entry !== undefined; entry = queue.shift()) out.push(entry);
    expect(out).toEqual(["a1", "b1", "a2", "a3"]);
    expect(queue.size).toBe(0);
  });
});

describe("a page's bytes on their way to a process", () => {
  it("are the body's own bytes, not the memory behind it, and stay the caller's", async () => {
    const pool = new AnalysisPool({
      processes: 1,
      timeLimitMs: 600_000,
      memoryLimitMb: 512,
      scoring: defaultScoring,
    });
    const page = Buffer.from(
      '<!doctype html><html lang="en"><title>Icon</title><link rel="icon" href="/i.png"><body>x</body></html>',
    );
    // A body that is a view into larger memory (a fetched body's memory is sized before it is full).
    const memory = Buffer.alloc(1024 * 1024, 0x20);
    page.copy(memory, 1000);
    const body = memory.subarray(1000, 1000 + page.length);
    try {
      const session = await pool.session("");
      const parsed = await session.parse({
        body,
        contentType: "text/html; charset=utf-8",
        finalUrl: "https://example.com/",
        renderedHtml: null,
      });
      session.release();
      expect(parsed.declaresIcon).toBe(true);
      expect(body.equals(page)).toBe(true);
    } finally {
      await pool.close();
    }
  });
});

/** A pool of one process, started by parsing a large page in it (the page released): the pool and that process. */
async function poolWithProcess(semiSpaceMb?: number): Promise<{ pool: AnalysisPool; pid: number }> {
  const pool = new AnalysisPool({
    processes: 1,
    timeLimitMs: 600_000,
    memoryLimitMb: 512,
    scoring: defaultScoring,
    ...(semiSpaceMb === undefined ? {} : { semiSpaceMb }),
  });
  const session = await pool.session("");
  await session.parse({
    body: Buffer.from(heavyPage),
    contentType: "text/html",
    finalUrl: "https://example.com/",
    renderedHtml: null,
  });
  session.release();
  const [pid] = pool.processIds;
  return { pool, pid: pid as number };
}

describe.skipIf(process.platform !== "linux")("the analysis processes' memory settings", () => {
  it("cap malloc's arenas unless an operator set them, and size the young generation only when asked", async () => {
    const environOf = (pid: number) => readFileSync(`/proc/${pid}/environ`, "utf8").split("\0");
    const argumentsOf = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
    const operators = process.env.MALLOC_ARENA_MAX;
    delete process.env.MALLOC_ARENA_MAX;
    const byDefault = await poolWithProcess();
    process.env.MALLOC_ARENA_MAX = "3";
    const sized = await poolWithProcess(8);
    if (operators === undefined) delete process.env.MALLOC_ARENA_MAX;
    else process.env.MALLOC_ARENA_MAX = operators;
    try {
      expect(environOf(byDefault.pid)).toContain("MALLOC_ARENA_MAX=2");
      expect(
        argumentsOf(byDefault.pid).some((argument) => argument.startsWith("--max-semi-space-size")),
      ).toBe(false);
      expect(argumentsOf(sized.pid)).toContain("--max-semi-space-size=8");
      expect(environOf(sized.pid)).toContain("MALLOC_ARENA_MAX=3");
    } finally {
      await byDefault.pool.close();
      await sized.pool.close();
    }
  });
});

describe.skipIf(process.platform !== "linux")("the analysis processes' priority", () => {
  /** The nice value of each thread of a process (field 19 of /proc/<pid>/task/<id>/stat). */
  const niceValues = (pid: number | "self") =>
    readdirSync(`/proc/${pid}/task`).map((task) => {
      const stat = readFileSync(`/proc/${pid}/task/${task}/stat`, "utf8");
      return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]);
    });

  it("is 10 steps of nice below the process that started them, whatever that one's, on every thread", async () => {
    const { pool, pid } = await poolWithProcess();
    try {
      expect(pid).toBeDefined();
      const nice = niceValues(pid);
      expect(nice.length).toBeGreaterThan(1);
      expect(new Set(nice)).toEqual(new Set([Math.min(19, getPriority() + 10)]));
      // This process's own threads are left as they were.
      expect(niceValues("self")).toContain(getPriority());
    } finally {
      await pool.close();
    }
  });
});
