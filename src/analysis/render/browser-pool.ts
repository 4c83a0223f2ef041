/**
 * The browser pool: one Chromium process shared by a bounded number of pages at once, each page in a fresh
 * context (no cookies, cache or storage shared between analyses) with its own GuardProxy, a deadline and caps.
 * The browser is replaced after a number of pages or when it crashes; a page that hangs its tab is cut off at
 * its deadline and, if its context will not close, the browser is replaced too. Every failure stays the
 * failure of that one page.
 */
import type { Browser, BrowserContext } from "playwright-core";
import type { VettedAddress } from "../fetch/connection-guard.js";
import { failures } from "../fetch/fetch-failure.js";
import { ChromiumUnavailable, chromiumInstalled, launchChromium } from "./chromium-launch.js";
import { GuardProxy, type Vetter } from "./guard-proxy.js";
import { deviceScaleFactor, renderPage, viewport } from "./render-page.js";
import type { RenderedPage } from "./rendered-page.js";

export interface BrowserPoolOptions {
  /** PAGEGRADE_CHROMIUM_PATH. */
  executablePath: string;
  /** PAGEGRADE_CHROMIUM_SANDBOX: on unless Chromium runs as root (test machines). */
  sandbox: boolean;
  /** PAGEGRADE_MAX_CONCURRENT_RENDERS: pages rendering at once; more wait their turn. */
  maxConcurrent: number;
  /** Pages one browser process renders before it is replaced (bounds leaks in a long-lived browser). */
  pagesPerBrowser?: number;
  /** Deadline for one page, from opening its context to the screenshot. */
  deadlineMs?: number;
  /** Longest wait for the network to go quiet after load. */
  settleMs?: number;
  /** Requests one page may make. */
  maxRequests?: number;
  /** Bytes one page may receive, every response together. */
  maxBytes?: number;
  connectTimeoutMs?: number;
  /** The User-Agent, or null for Chromium's own (what a visitor's browser would send). */
  userAgent?: string | null;
  /** A renderer's JavaScript heap limit. */
  jsHeapMiB?: number;
}

interface BrowserHandle {
  browser: Browser;
  pagesStarted: number;
  inFlight: number;
  retiring: boolean;
}

/** The browser-wide fallback proxy's guard: nothing outside a page's own context may go anywhere. */
const refuseEverything: Vetter = {
  vet: (): Promise<VettedAddress> => Promise.reject(failures.privateAddress()),
};

const contextCloseMs = 5_000;

export class BrowserPool {
  private readonly options: Required<BrowserPoolOptions>;
  private current: BrowserHandle | null = null;
  private launching: Promise<BrowserHandle> | null = null;
  private fallbackProxy: GuardProxy | null = null;
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  private closed = false;
  private launchCount = 0;

  constructor(
    private readonly vetter: Vetter,
    options: BrowserPoolOptions,
  ) {
    this.options = {
      pagesPerBrowser: 50,
      deadlineMs: 30_000,
      settleMs: 3_000,
      maxRequests: 500,
      maxBytes: 50 * 1024 * 1024,
      connectTimeoutMs: 5_000,
      userAgent: null,
      jsHeapMiB: 512,
      ...options,
    };
  }

  /** Browser processes started so far (the first one, and each replacement after a crash or N pages). */
  get launches(): number {
    return this.launchCount;
  }

  /** False when this server has no Chromium at the configured path (rendered mode is then unavailable). */
  get available(): boolean {
    return chromiumInstalled(this.options.executablePath);
  }

  /**
   * Renders a page. Throws ChromiumUnavailable without Chromium, FetchFailure when the page cannot be loaded
   * (refused by the guard, unreachable, non-2xx, not HTML, past its deadline), RenderFailure when it crashes.
   */
  async render(url: URL): Promise<RenderedPage> {
    if (!this.available) throw new ChromiumUnavailable(this.options.executablePath);
    await this.acquireSlot();
    try {
      return await this.renderInBrowser(url);
    } finally {
      this.releaseSlot();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const handle = this.current ?? (await this.launching?.catch(() => null)) ?? null;
    this.current = null;
    await handle?.browser.close().catch(() => {});
    await this.fallbackProxy?.close();
    this.fallbackProxy = null;
  }

  private async renderInBrowser(url: URL): Promise<RenderedPage> {
    const deadlineAt = performance.now() + this.options.deadlineMs;
    const handle = await this.browser();
    handle.pagesStarted++;
    handle.inFlight++;
    const proxy = await GuardProxy.start(this.vetter, {
      maxRequests: this.options.maxRequests,
      maxBytes: this.options.maxBytes,
      connectTimeoutMs: this.options.connectTimeoutMs,
    });
    let context: BrowserContext | null = null;
    try {
      context = await handle.browser.newContext({
        proxy: { server: proxy.url, bypass: "<-loopback>" },
        viewport,
        screen: viewport,
        deviceScaleFactor,
        isMobile: true,
        hasTouch: true,
        serviceWorkers: "block",
        acceptDownloads: false,
        ignoreHTTPSErrors: false,
        locale: "en-US",
        ...(this.options.userAgent ? { userAgent: this.options.userAgent } : {}),
      });
      const rendering = renderPage(context, url, proxy, { deadlineAt, settleMs: this.options.settleMs });
      return await withDeadline(rendering, deadlineAt);
    } finally {
      const closedInTime = context ? await settlesWithin(context.close(), contextCloseMs) : true;
      await proxy.close();
      handle.inFlight--;
      // A context that will not close means a browser that no longer answers: replace it.
      if (!closedInTime) this.retire(handle);
      if (handle.retiring && handle.inFlight === 0) await handle.browser.close().catch(() => {});
    }
  }

  /** The current browser, or a new one when there is none, it crashed, or it has rendered its share. */
  private async browser(): Promise<BrowserHandle> {
    const current = this.current;
    if (current && !current.retiring && current.browser.isConnected()) {
      if (current.pagesStarted < this.options.pagesPerBrowser) return current;
      this.retire(current);
    }
    this.launching ??= this.launch().finally(() => {
      this.launching = null;
    });
    return this.launching;
  }

  private async launch(): Promise<BrowserHandle> {
    this.fallbackProxy ??= await GuardProxy.start(refuseEverything, {
      maxRequests: 0,
      maxBytes: 0,
      connectTimeoutMs: 1,
    });
    const browser = await launchChromium({
      executablePath: this.options.executablePath,
      sandbox: this.options.sandbox,
      fallbackProxyUrl: this.fallbackProxy.url,
      jsHeapMiB: this.options.jsHeapMiB,
    });
    this.launchCount++;
    const handle: BrowserHandle = { browser, pagesStarted: 0, inFlight: 0, retiring: false };
    browser.on("disconnected", () => {
      if (this.current === handle) this.current = null;
    });
    if (this.closed) {
      await browser.close().catch(() => {});
      throw new Error("The browser pool is closed.");
    }
    this.current = handle;
    return handle;
  }

  /** Takes the browser out of service; it is closed once its last page is done. */
  private retire(handle: BrowserHandle): void {
    handle.retiring = true;
    if (this.current === handle) this.current = null;
    if (handle.inFlight === 0) void handle.browser.close().catch(() => {});
  }

  private async acquireSlot(): Promise<void> {
    if (this.active < this.options.maxConcurrent) {
      this.active++;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  /** Hands the slot straight to the next waiter, or frees it. */
  private releaseSlot(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.active--;
  }
}

/** The work's result, or a timeout failure at the deadline (the caller then closes what the work held). */
function withDeadline<T>(work: Promise<T>, deadlineAt: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(failures.timeout()), Math.max(0, deadlineAt - performance.now()));
  });
  work.catch(() => {});
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

/** Whether the promise settled (either way) within the time. */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  const settled = promise.then(
    () => true,
    () => true,
  );
  const result = await Promise.race([settled, timeout]);
  clearTimeout(timer);
  return result;
}
