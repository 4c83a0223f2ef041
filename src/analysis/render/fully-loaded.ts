/**
 * When a page is done enough to measure, the way Lighthouse decides it (its gather/driver/wait-for-condition.js,
 * waitForFullyLoaded): 1 s after the load event, once the network has been quiet for 1 s (no request in
 * flight), and then once the main thread has been quiet for 1 s (no long task, 50 ms or more, in the last
 * second, counted from the moment the network went quiet). Late work (a layout shift a second after load, a
 * long task started by the load event) then lands in the trace as it does in Lighthouse's. The whole wait
 * stops at the caller's bound, which keeps a page that never goes quiet within its deadline.
 */
import type { CDPSession, Page } from "playwright-core";
import { beforeDeadline } from "../../runtime/deadline.js";

/** Lighthouse's defaults (its config/constants.js). */
export const pauseAfterLoadMs = 1_000;
export const networkQuietMs = 1_000;
export const cpuQuietMs = 1_000;

const pollMs = 50;

/** Counts the page's requests in flight from the moment it is made (before the navigation). */
export class NetworkQuiet {
  private inFlight = 0;
  private changed = performance.now();

  constructor(page: Page) {
    page.on("request", () => this.change(1));
    page.on("requestfinished", () => this.change(-1));
    page.on("requestfailed", () => this.change(-1));
  }

  /** Resolves once no request has been in flight for quietMs, or at stopAt. */
  async quiet(quietMs: number, stopAt: number): Promise<void> {
    while (performance.now() < stopAt) {
      if (this.inFlight <= 0 && performance.now() - this.changed >= quietMs) return;
      await sleep(Math.min(pollMs, stopAt - performance.now()));
    }
  }

  private change(delta: number): void {
    this.inFlight += delta;
    this.changed = performance.now();
  }
}

/**
 * Waits as Lighthouse does after the load event (at loadedAt), until stopAt at the latest. The main thread is
 * watched from a world of its own (Page.createIsolatedWorld), so the page sees no added global and cannot
 * tamper with the count.
 */
export async function waitForFullyLoaded(
  page: Page,
  cdp: CDPSession,
  network: NetworkQuiet,
  loadedAt: number,
  stopAt: number,
): Promise<void> {
  await Promise.all([
    sleep(Math.min(loadedAt + pauseAfterLoadMs, stopAt) - performance.now()),
    network.quiet(networkQuietMs, stopAt),
  ]);
  if (performance.now() >= stopAt) return;
  await cpuQuiet(page, cdp, stopAt).catch(() => {
    // The document went away (a navigation, a crash): nothing left to wait for.
  });
}

/** Resolves once no long task has ended in the last second (counted from now at first), or at stopAt. */
async function cpuQuiet(page: Page, cdp: CDPSession, stopAt: number): Promise<void> {
  const frameId = (await cdp.send("Page.getFrameTree")).frameTree.frame.id;
  const { executionContextId } = await cdp.send("Page.createIsolatedWorld", {
    frameId,
    worldName: "pagegrade-cpu-quiet",
  });
  const evaluate = async (expression: string): Promise<number> => {
    // A page whose main thread never answers is given up at the wait's bound.
    const { result } = await beforeDeadline(
      cdp.send("Runtime.evaluate", { expression, contextId: executionContextId, returnByValue: true }),
      stopAt,
      () => new Error("past the wait's bound"),
    );
    return Number(result.value);
  };
  await evaluate(`(() => {
    globalThis.lastLongTaskEnd = performance.now();
    new PerformanceObserver((list) => {
      for (const task of list.getEntries()) {
        globalThis.lastLongTaskEnd = Math.max(globalThis.lastLongTaskEnd, task.startTime + task.duration);
      }
    }).observe({ type: "longtask" });
    return 0;
  })()`);
  while (performance.now() < stopAt && !page.isClosed()) {
    const quietFor = await evaluate("performance.now() - globalThis.lastLongTaskEnd");
    if (quietFor >= cpuQuietMs) return;
    await sleep(Math.min(cpuQuietMs - quietFor, stopAt - performance.now()));
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}
