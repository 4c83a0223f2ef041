/**
 * A watch on a service's event loop from outside: `GET /healthz` every `intervalMs` (one request at a time, on
 * a kept-alive connection), timing each answer. While the service is busy with something heavy, the slowest
 * answer says how long its event loop stalled; any stall case (a page, a robots.txt, a sitemap) can run under
 * one. Build the heavy input before starting the probe, so that this process's own work is not measured.
 */
import { Agent, request } from "undici";

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

export function probeLoop(serviceUrl: string, intervalMs = 50): LoopProbe {
  const agent = new Agent({ connections: 1, keepAliveTimeout: 60_000 });
  const url = new URL("/healthz", serviceUrl);
  const answers: Array<{ atMs: number; ms: number }> = [];
  let failures = 0;
  let running = true;
  const started = performance.now();
  const loop = (async () => {
    while (running) {
      const sent = performance.now();
      try {
        const response = await request(url, { dispatcher: agent });
        await response.body.dump();
        if (response.statusCode !== 200) failures++;
      } catch {
        failures++;
      }
      const answered = performance.now();
      answers.push({ atMs: Math.round(sent - started), ms: answered - sent });
      const wait = intervalMs - (answered - sent);
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    }
  })();
  return {
    async stop(boundMs = Number.POSITIVE_INFINITY) {
      running = false;
      await loop;
      await agent.close();
      return {
        samples: answers.length,
        maxMs: Math.max(0, ...answers.map((answer) => answer.ms)),
        slow: answers.filter((answer) => answer.ms > boundMs),
        failures,
      };
    },
  };
}
