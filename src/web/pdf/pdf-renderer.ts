/**
 * Turns a complete HTML document of our own into a PDF with Chromium, with no network at all: the document is
 * set as the page's content (never loaded from a URL), its CSS is inline, JavaScript is off in the context,
 * every request the page would make is aborted, and the browser is launched with the rendering switches
 * (chromium-launch.ts) behind a proxy that refuses everything, so even a request that slipped past the route
 * resolves no name and reaches nothing.
 *
 * One browser, started when the first PDF is asked for and shared by every PDF after it (replaced after a number
 * of documents or when it crashed, closed when idle for minutes); a bounded number of PDFs at once, a short
 * queue, a deadline per PDF.
 */
import type { Browser, BrowserContext } from "playwright-core";
import { closesInTime, startRefusingProxy } from "../../analysis/render/chromium-helpers.js";
import { type ChromiumStatus, chromiumStatus } from "../../analysis/render/chromium-status.js";
import type { GuardProxy } from "../../analysis/render/guard-proxy.js";
import { beforeDeadline } from "../../runtime/deadline.js";
import { PdfCache } from "./pdf-cache.js";

export interface PdfRendererOptions {
  /** PAGEGRADE_CHROMIUM_PATH. */
  executablePath: string;
  /** PAGEGRADE_CHROMIUM_SANDBOX: on unless Chromium runs as root (test machines). */
  sandbox: boolean;
  /** PAGEGRADE_MAX_CONCURRENT_PDFS: documents printed at once. */
  maxConcurrent: number;
  /** Requests that may wait for a turn; more are refused as busy at once. */
  maxWaiting?: number;
  /** Deadline for one PDF, waiting for its turn included. */
  deadlineMs?: number;
  /** Documents one browser process prints before it is replaced (bounds leaks in a long-lived browser). */
  documentsPerBrowser?: number;
  /** Bytes of recently printed PDFs kept to serve the same document again; 0 keeps none. */
  cacheBytes?: number;
  /** A browser with nothing to print for this long is closed (the next PDF starts one again). */
  idleMs?: number;
}

/** What to print: a complete HTML document and Chromium's header and footer templates (HTML too). */
export interface PrintDocument {
  html: string;
  headerTemplate: string;
  footerTemplate: string;
  /** Page margins; the header and footer are drawn inside the top and bottom ones. */
  margin: { top: string; right: string; bottom: string; left: string };
}

/** Every turn is taken and the queue is full: try again shortly. */
export class PdfBusy extends Error {
  override readonly name = "PdfBusy";
  readonly retryAfterSeconds = 5;
}

/** The PDF was not ready within its deadline (its turn did not come, or Chromium took too long). */
export class PdfTimeout extends Error {
  override readonly name = "PdfTimeout";
}

/** A browser process and the documents it is printing; retired ones close once their last document is done. */
interface BrowserEntry {
  browser: Promise<Browser>;
  printed: number;
  printing: number;
  retired: boolean;
}

export class PdfRenderer {
  private readonly options: Required<PdfRendererOptions>;
  /** Whether Chromium runs here, shared with rendered mode. */
  private readonly chromium: ChromiumStatus;
  private current: BrowserEntry | null = null;
  private readonly entries = new Set<BrowserEntry>();
  private fallbackProxy: Promise<GuardProxy> | null = null;
  private running = 0;
  private readonly waiting: Array<() => void> = [];
  private closed = false;
  private launchCount = 0;
  private printCount = 0;
  private readonly cache: PdfCache;
  private idleTimer: NodeJS.Timeout | null = null;

  constructor(options: PdfRendererOptions) {
    this.options = {
      maxWaiting: 8,
      deadlineMs: 30_000,
      documentsPerBrowser: 200,
      cacheBytes: 32 * 1024 * 1024,
      idleMs: 5 * 60_000,
      ...options,
    };
    this.chromium = chromiumStatus(this.options);
    this.cache = new PdfCache(this.options.cacheBytes);
  }

  /** False when Chromium is missing or known not to start (PDFs are then unavailable). */
  get available(): boolean {
    return this.chromium.problem() === null;
  }

  /** Browser processes started so far. */
  get launches(): number {
    return this.launchCount;
  }

  /** Documents Chromium has printed so far (PDFs served again from the cache not counted). */
  get prints(): number {
    return this.printCount;
  }

  /**
   * Prints the document, or serves the PDF printed for the same document recently. Throws ChromiumUnavailable
   * when Chromium is missing or does not start, PdfBusy when the queue is full, PdfTimeout past the deadline.
   */
  async render(document: PrintDocument): Promise<Buffer> {
    if (this.closed) throw new Error("The PDF renderer is closed.");
    this.chromium.check();
    return this.cache.get(PdfCache.keyOf(document), () => this.printInTurn(document));
  }

  private async printInTurn(document: PrintDocument): Promise<Buffer> {
    const deadlineAt = performance.now() + this.options.deadlineMs;
    this.stopIdleTimer();
    await this.acquire(deadlineAt);
    const entry = this.entryForNextDocument();
    entry.printing++;
    this.printCount++;
    try {
      return await this.print(entry, document, deadlineAt);
    } finally {
      entry.printing--;
      if (entry.retired && entry.printing === 0) void this.closeEntry(entry);
      this.release();
      if (this.running === 0) this.startIdleTimer();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.stopIdleTimer();
    this.current = null;
    await Promise.all([...this.entries].map((entry) => this.closeEntry(entry)));
    await (await this.fallbackProxy?.catch(() => null))?.close();
    this.fallbackProxy = null;
  }

  private async print(entry: BrowserEntry, document: PrintDocument, deadlineAt: number): Promise<Buffer> {
    let abandoned = false;
    let context: BrowserContext | null = null;
    const work = (async () => {
      const browser = await entry.browser;
      const opened = await browser.newContext({
        javaScriptEnabled: false,
        offline: true,
        serviceWorkers: "block",
        acceptDownloads: false,
        locale: "en-US",
        timezoneId: "UTC",
      });
      context = opened;
      if (abandoned) throw new PdfTimeout("The PDF was not ready in time.");
      // Nothing is fetched: not an image, a font, a stylesheet or a frame, whatever the document holds.
      await opened.route("**/*", (route) => route.abort("blockedbyclient"));
      const page = await opened.newPage();
      await page.setContent(document.html, { waitUntil: "load" });
      await page.emulateMedia({ media: "print" });
      return page.pdf({
        format: "A4",
        printBackground: true,
        displayHeaderFooter: true,
        headerTemplate: document.headerTemplate,
        footerTemplate: document.footerTemplate,
        margin: document.margin,
        preferCSSPageSize: true,
        outline: false,
        tagged: true,
      });
    })();
    try {
      return await beforeDeadline(work, deadlineAt, () => new PdfTimeout("The PDF was not ready in time."));
    } catch (error) {
      // A browser that is gone (crashed, killed) is replaced for the next document.
      const browser = await entry.browser.catch(() => null);
      if (!browser?.isConnected()) this.retire(entry);
      throw error;
    } finally {
      abandoned = true;
      // A context that opens after the deadline is closed by the code below, once it is there.
      void work.catch(() => {}).finally(() => (context as BrowserContext | null)?.close().catch(() => {}));
      const closedInTime = await closesInTime(context as BrowserContext | null);
      // A context that will not close means a browser that no longer answers: replace it.
      if (!closedInTime) this.retire(entry);
    }
  }

  /** Closes the browser once nothing has been printed for a while; a new PDF starts another. */
  private startIdleTimer(): void {
    this.stopIdleTimer();
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      if (this.running === 0 && this.current) this.retire(this.current);
    }, this.options.idleMs);
    this.idleTimer.unref();
  }

  private stopIdleTimer(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }

  /** The shared browser, launched on first use and again after it crashed or printed its share. */
  private entryForNextDocument(): BrowserEntry {
    const current = this.current;
    if (current && !current.retired && current.printed < this.options.documentsPerBrowser) {
      current.printed++;
      return current;
    }
    if (current) this.retire(current);
    const browser = this.launch();
    const entry: BrowserEntry = { browser, printed: 1, printing: 0, retired: false };
    browser.then(
      (launched) => launched.on("disconnected", () => this.retire(entry)),
      () => this.retire(entry),
    );
    this.entries.add(entry);
    this.current = entry;
    return entry;
  }

  private retire(entry: BrowserEntry): void {
    entry.retired = true;
    if (this.current === entry) this.current = null;
    if (entry.printing === 0) void this.closeEntry(entry);
  }

  private async closeEntry(entry: BrowserEntry): Promise<void> {
    if (!this.entries.delete(entry)) return;
    await (await entry.browser.catch(() => null))?.close().catch(() => {});
  }

  private async launch(): Promise<Browser> {
    // A PDF has no business on the network.
    this.fallbackProxy ??= startRefusingProxy();
    const browser = await this.chromium.launch({
      fallbackProxyUrl: (await this.fallbackProxy).url,
      jsHeapMiB: 256,
    });
    this.launchCount++;
    if (this.closed) {
      await browser.close().catch(() => {});
      throw new Error("The PDF renderer is closed.");
    }
    return browser;
  }

  private async acquire(deadlineAt: number): Promise<void> {
    if (this.running < this.options.maxConcurrent) {
      this.running++;
      return;
    }
    if (this.waiting.length >= this.options.maxWaiting) throw new PdfBusy("Every PDF turn is taken.");
    await new Promise<void>((resolve, reject) => {
      const turn = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(
        () => {
          const index = this.waiting.indexOf(turn);
          if (index >= 0) this.waiting.splice(index, 1);
          reject(new PdfTimeout("The PDF's turn did not come in time."));
        },
        Math.max(0, deadlineAt - performance.now()),
      );
      this.waiting.push(turn);
    });
  }

  /** Hands the turn straight to the next waiter, or frees it. */
  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running--;
  }
}
