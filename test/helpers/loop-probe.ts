/**
 * A watch on a service's event loop from outside: `GET /healthz` every `intervalMs` (one request at a time, on
 * a kept-alive connection), timing each answer. While the service is busy with something heavy, the slowest
 * answer says how long its event loop stalled; any stall case (a page, a robots.txt, a sitemap) can run under
 * one. The probing runs in a worker thread of its own (loop-probe-worker.mjs): its event loop is not the test's,
 * so the test's own work meanwhile (serving the hostile pages, building them, its garbage collection) is not
 * counted as the service's. With the probe on the test's own loop, that loop stalled as long as the slowest
 * answer (368 ms against 397 ms, measured while seven 5 MiB pages were served from it).
 */
import { Worker } from "node:worker_threads";

export interface LoopProbeResult {
  /** Probes answered. */
  samples: number;
  /** The slowest answer, in milliseconds. */
  maxMs: number;
  /** Answers slower than the bound given to `stop`, with when they came (ms since the probe started). */
  slow: Array<{ atMs: number; ms: number }>;
  /** Probes that failed or did not answer 200. */
  failures: number;
}

export interface LoopProbe {
  /** Stops probing (after the request in flight) and sums up; `boundMs` marks the answers counted as slow. */
  stop(boundMs?: number): Promise<LoopProbeResult>;
}

/** Starts probing; resolves once the probe's thread has its connection open and counts from then on. */
export async function probeLoop(serviceUrl: string, intervalMs = 50): Promise<LoopProbe> {
  const worker = new Worker(new URL("./loop-probe-worker.mjs", import.meta.url), {
    workerData: { url: new URL("/healthz", serviceUrl).href, intervalMs },
  });
  let ready: () => void = () => {};
  const started = new Promise<void>((resolve) => {
    ready = resolve;
  });
  const finished = new Promise<{ answers: Array<{ atMs: number; ms: number }>; failures: number }>(
    (resolve, reject) => {
      worker.on("message", (message) => (message === "ready" ? ready() : resolve(message)));
      worker.once("error", reject);
      worker.once("exit", (code) => reject(new Error(`the loop probe's thread exited (${code})`)));
    },
  );
  await Promise.race([started, finished]);
  return {
    async stop(boundMs = Number.POSITIVE_INFINITY) {
      worker.postMessage("stop");
      const { answers, failures } = await finished;
      await worker.terminate();
      return {
        samples: answers.length,
        maxMs: Math.max(0, ...answers.map((answer) => answer.ms)),
        slow: answers.filter((answer) => answer.ms > boundMs),
        failures,
      };
    },
  };
}
