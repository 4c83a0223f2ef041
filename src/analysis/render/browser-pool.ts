/**
 * The browser pool: a bounded number of pages at once, each rendered by the Chromium process of its slot
 * (one page per process at a time: Chromium records one trace per browser, and a page cannot starve another
 * of its process), in a fresh context (no cookies, cache or storage shared between analyses) with its own
 * GuardProxy, a deadline and caps. A slot's browser is replaced after a number of pages or when it crashes; a
 * page that hangs its tab is cut off at its deadline and, if its context will not close, the browser is
 * replaced too. Every failure stays the failure of that one page.
 */
import type { Browser, BrowserContext } from "playwright-core";
import { beforeDeadline } from "../../runtime/deadline.js";
import { failures } from "../fetch/fetch-failure.js";
import { closesInTime, mobileContextOptions, startRefusingProxy } from "./chromium-helpers.js";
import { type ChromiumStatus, chromiumStatus } from "./chromium-status.js";
import { GuardProxy, type Vetter } from "./guard-proxy.js";
import { type PartListener, renderPage } from "./render-page.js";
import type { RenderedPage } from "./rendered-page.js";
import type { HeadersFor } from "./site-headers.js";

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
  /** Longest wait after load for the page to be fully loaded (network and main thread quiet, as Lighthouse). */
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
  /** Whether axe-core audits each page's accessibility (checks/accessibility/axe-audit.ts); off only to measure its cost. */
  accessibility?: boolean;
  /** Told as each part of a render ends (render-page.ts); bench:render measures CPU per part with it. */
  onPart?: PartListener;
}

/** One place for a page to render: its own browser process, started when first needed. */
interface Slot {
  browser: Browser | null;
  pagesRendered: number;
}

export class BrowserPool {
  private readonly options: Required<BrowserPoolOptions>;
  /** Whether Chromium runs here; a launch that fails makes every render refuse clearly until it runs again. */
  private readonly chromium: ChromiumStatus;
  private readonly free: Slot[];
  private readonly slots: Slot[];
  private readonly waiting: Array<(slot: Slot) => void> = [];
  private fallbackProxy: Promise<GuardProxy> | null = null;
  private closed = false;
  private launchCount = 0;

  constructor(
    private readonly vetter: Vetter,
    options: BrowserPoolOptions,
  ) {
    this.options = {
      pagesPerBrowser: 50,
      deadlineMs: 30_000,
      settleMs: 5_000,
      maxRequests: 500,
      maxBytes: 50 * 1024 * 1024,
      connectTimeoutMs: 5_000,
      userAgent: null,
      jsHeapMiB: 512,
      accessibility: true,
      onPart: () => {},
      ...options,
    };
    this.chromium = chromiumStatus(this.options);
    this.slots = Array.from({ length: this.options.maxConcurrent }, () => ({
      browser: null,
      pagesRendered: 0,
    }));
    this.free = [...this.slots];
  }

  /** Browser processes started so far (each slot's first, and each replacement after a crash or N pages). */
  get launches(): number {
    return this.launchCount;
  }

  /** False when Chromium is missing or known not to start (rendered mode is then unavailable). */
  get available(): boolean {
    return this.chromium.problem() === null;
  }

  /**
   * Renders a page. Throws ChromiumUnavailable when Chromium is missing or does not start, FetchFailure when the page cannot be loaded
   * (refused by the guard, unreachable, non-2xx, not HTML, past its deadline), RenderFailure when it crashes.
   */
  async render(url: URL, headersFor?: HeadersFor): Promise<RenderedPage> {
    this.chromium.check();
    const slot = await this.acquire();
    try {
      return await this.renderIn(slot, url, headersFor);
    } finally {
      this.release(slot);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.slots.map((slot) => this.closeBrowser(slot)));
    await (await this.fallbackProxy?.catch(() => null))?.close();
    this.fallbackProxy = null;
  }

  private async renderIn(slot: Slot, url: URL, headersFor: HeadersFor | undefined): Promise<RenderedPage> {
    const deadlineAt = performance.now() + this.options.deadlineMs;
    const browser = await this.browserOf(slot);
    slot.pagesRendered++;
    const proxy = await GuardProxy.start(this.vetter, {
      maxRequests: this.options.maxRequests,
      maxBytes: this.options.maxBytes,
      connectTimeoutMs: this.options.connectTimeoutMs,
    });
    let context: BrowserContext | null = null;
    try {
      context = await browser.newContext({
        ...mobileContextOptions(proxy.url),
        serviceWorkers: "block",
        acceptDownloads: false,
        ignoreHTTPSErrors: false,
        locale: "en-US",
        ...(this.options.userAgent ? { userAgent: this.options.userAgent } : {}),
      });
      const rendering = renderPage(context, url, proxy, {
        deadlineAt,
        settleMs: this.options.settleMs,
        headersFor,
        accessibility: this.options.accessibility,
        onPart: this.options.onPart,
      });
      return await beforeDeadline(rendering, deadlineAt, () => failures.timeout());
    } finally {
      const closedInTime = await closesInTime(context);
      await proxy.close();
      this.options.onPart("close");
      // A context that will not close means a browser that no longer answers: replace it.
      if (!closedInTime) await this.closeBrowser(slot);
    }
  }

  /** The slot's browser, or a new one when it has none, it crashed, or it has rendered its share. */
  private async browserOf(slot: Slot): Promise<Browser> {
    if (slot.browser?.isConnected() && slot.pagesRendered < this.options.pagesPerBrowser) return slot.browser;
    await this.closeBrowser(slot);
    // Nothing outside a page's own context may go anywhere.
    this.fallbackProxy ??= startRefusingProxy();
    const browser = await this.chromium.launch({
      fallbackProxyUrl: (await this.fallbackProxy).url,
      jsHeapMiB: this.options.jsHeapMiB,
    });
    this.launchCount++;
    if (this.closed) {
      await browser.close().catch(() => {});
      throw new Error("The browser pool is closed.");
    }
    slot.browser = browser;
    slot.pagesRendered = 0;
    return browser;
  }

  private async closeBrowser(slot: Slot): Promise<void> {
    const browser = slot.browser;
    slot.browser = null;
    await browser?.close().catch(() => {});
  }

  private async acquire(): Promise<Slot> {
    const slot = this.free.shift();
    if (slot) return slot;
    return new Promise<Slot>((resolve) => this.waiting.push(resolve));
  }

  /** Hands the slot straight to the next waiter, or frees it. */
  private release(slot: Slot): void {
    const next = this.waiting.shift();
    if (next) next(slot);
    else this.free.unshift(slot);
  }
}
