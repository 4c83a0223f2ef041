/**
 * Renders one page in a fresh browser context whose only way out is its GuardProxy: navigates, lets the page
 * settle, and gathers the RenderedPage (rendered HTML, main response, failures, console problems, screenshot,
 * timings). Dialogs are dismissed and popups closed as they appear, so a hostile page can only waste its own
 * time; the deadline around this (browser-pool.ts) ends it.
 */
import type { BrowserContext, CDPSession, Page, Request, Response } from "playwright-core";
import { auditAccessibility } from "../checks/accessibility/axe-audit.js";
import { type FetchFailure, failures, retryAfterSeconds } from "../fetch/fetch-failure.js";
import { mediaTypeOf } from "../media-type.js";
import { viewport } from "./chromium-helpers.js";
import { NetworkQuiet, waitForFullyLoaded } from "./fully-loaded.js";
import type { GuardProxy, ProxyRefusal } from "./guard-proxy.js";
import { holdRefusedNavigations } from "./navigation-hold.js";
import { RenderFailure } from "./render-errors.js";
import type {
  ConsoleProblem,
  FailedRequest,
  MainResponse,
  MetricElement,
  NavigationTiming,
  RenderedFacts,
  RenderedMetrics,
  RenderedPage,
  Screenshot,
} from "./rendered-page.js";
import { addSiteHeaders, type HeadersFor } from "./site-headers.js";
import { metricsFromTrace, type TraceEvent } from "./trace-metrics.js";
import { startTrace } from "./trace-recorder.js";

export { RenderFailure };

export interface RenderPageOptions {
  /** performance.now() by which the page must be rendered; navigation gets what remains. */
  deadlineAt: number;
  /** Longest wait after load for the page to be fully loaded (fully-loaded.ts), within the deadline. */
  settleMs: number;
  /** A crawl's headers for each request's URL (site-headers.ts); none without it. */
  headersFor?: HeadersFor;
  /** Whether to run axe-core on the settled page (otherwise its accessibility says it was not audited). */
  accessibility: boolean;
  /** Called as each part of the render ends, with its name (bench:render measures CPU per part with it). */
  onPart?: PartListener;
}

/** The parts of one render, in order, as renderPage reports their ends to `onPart` ("close" by the pool). */
export type RenderPart = "open" | "load" | "settle" | "trace" | "document" | "screenshot" | "axe" | "close";
export type PartListener = (part: RenderPart) => void;

/** Left of the deadline after the wait, for the trace, the document and the screenshot (slow on a busy machine). */
const afterWaitMs = 3_000;

const htmlMediaTypes = new Set(["text/html", "application/xhtml+xml"]);
const maxFailedRecords = 100;
const maxConsoleRecords = 50;
const textLimit = 500;

export async function renderPage(
  context: BrowserContext,
  url: URL,
  proxy: GuardProxy,
  options: RenderPageOptions,
): Promise<RenderedPage> {
  const started = performance.now();
  const ended = options.onPart ?? (() => {});
  const page = await context.newPage();
  const recorder = new FactsRecorder(proxy);
  recorder.watch(context, page);
  const crashed = new Promise<never>((_resolve, reject) => {
    page.once("crash", () => reject(new RenderFailure()));
  });
  crashed.catch(() => {});
  const network = new NetworkQuiet(page);
  const cdp = await context.newCDPSession(page);
  const protocols = await watchProtocols(cdp);
  const trace = await startTrace(cdp);
  if (options.headersFor) await addSiteHeaders(context, page, url, options.headersFor);
  ended("open");
  const work = async (): Promise<RenderedPage> => {
    const response = await navigate(page, url, proxy, options.deadlineAt);
    const loadedAt = performance.now();
    ended("load");
    await holdRefusedNavigations(cdp, proxy);
    recorder.mainRequest = response.request();
    const main = await mainResponse(response, protocols);
    const mediaType = mediaTypeOf(main.headers["content-type"]);
    if (mediaType && !htmlMediaTypes.has(mediaType)) throw failures.notHtml(mediaType);
    const stopAt = Math.min(loadedAt + options.settleMs, options.deadlineAt - afterWaitMs);
    await waitForFullyLoaded(page, cdp, network, loadedAt, stopAt);
    ended("settle");
    const metrics = await labMetrics(cdp, await trace.stop());
    ended("trace");
    const html = await page.content();
    ended("document");
    const screenshot = await captureViewport(cdp);
    ended("screenshot");
    const timing = await navigationTiming(page, started);
    const accessibility = options.accessibility
      ? await auditAccessibility(cdp, options.deadlineAt - 500)
      : { problem: "accessibility was not audited" };
    ended("axe");
    return {
      requestedUrl: url.href,
      finalUrl: page.url(),
      main,
      html,
      facts: recorder.facts(),
      screenshot,
      timing,
      metrics,
      accessibility,
    };
  };
  return Promise.race([work(), crashed]);
}

/** Goes to the URL; maps a refused, failed or non-2xx navigation to the fetcher's typed failures. */
async function navigate(page: Page, url: URL, proxy: GuardProxy, deadlineAt: number): Promise<Response> {
  const navigations: string[] = [];
  let lastStatus: number | null = null;
  const isMainNavigation = (request: Request) =>
    request.isNavigationRequest() && request.frame() === page.mainFrame();
  page.on("request", (request) => {
    if (isMainNavigation(request)) navigations.push(request.url());
  });
  page.on("response", (answer) => {
    if (isMainNavigation(answer.request())) lastStatus = answer.status();
  });
  let response: Response | null;
  try {
    response = await page.goto(url.href, {
      waitUntil: "load",
      timeout: Math.max(1, deadlineAt - performance.now() - 500),
    });
  } catch (error) {
    const refusal = refusalOf(proxy, navigations.at(-1) ?? url.href);
    if (refusal) throw navigationRefused(refusal);
    if (error instanceof Error && error.name === "TimeoutError") throw failures.timeout();
    // Chromium fails a navigation to an error status with an empty body (ERR_HTTP_RESPONSE_CODE_FAILURE).
    if (lastStatus !== null && (lastStatus < 200 || lastStatus > 299)) throw failures.httpStatus(lastStatus);
    throw failures.connectionFailed();
  }
  if (!response) throw failures.connectionFailed();
  const refusal = refusalOf(proxy, response.url());
  if (refusal) throw navigationRefused(refusal);
  const status = response.status();
  if (status < 200 || status > 299) {
    throw failures.httpStatus(status, retryAfterSeconds(response.headers()["retry-after"]));
  }
  return response;
}

function navigationRefused(refusal: ProxyRefusal): FetchFailure {
  if (refusal.reason === "unresolvable") return failures.unresolvable();
  if (refusal.reason === "private-address") return failures.privateAddress();
  if (refusal.reason === "byte-limit") return failures.tooLarge(0);
  return failures.connectionFailed();
}

/** The proxy's refusal of this URL's request (a plain request) or of its origin's tunnel, if any. */
export function refusalOf(proxy: GuardProxy, rawUrl: string): ProxyRefusal | undefined {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return undefined;
  }
  const tunnel = url.protocol === "https:" || url.protocol === "wss:" ? `https://${url.host}` : null;
  return proxy.stats.refusals.find((refusal) => refusal.target === url.href || refusal.target === tunnel);
}

async function mainResponse(response: Response, protocols: Map<string, string>): Promise<MainResponse> {
  const redirects: MainResponse["redirects"] = [];
  for (let hop = response.request().redirectedFrom(); hop; hop = hop.redirectedFrom()) {
    const answer = await hop.response();
    redirects.unshift({
      url: hop.url(),
      status: answer?.status() ?? 0,
      location: (await answer?.headerValue("location")) ?? "",
    });
  }
  // Connection and Keep-Alive are the proxy's own, between it and the browser; the site's were dropped there.
  const headers = await response.allHeaders();
  delete headers.connection;
  delete headers["keep-alive"];
  const body = await response.body().catch(() => Buffer.alloc(0));
  return {
    status: response.status(),
    protocol: protocols.get(response.url()) ?? "http/1.1",
    headers,
    redirects,
    body,
  };
}

/** The protocol of each document response, which Playwright does not expose; Chromium reports it over CDP. */
async function watchProtocols(cdp: CDPSession): Promise<Map<string, string>> {
  const protocols = new Map<string, string>();
  cdp.on("Network.responseReceived", (event) => {
    if (event.type === "Document" && event.response.protocol) {
      protocols.set(event.response.url, event.response.protocol);
    }
  });
  await cdp.send("Network.enable");
  return protocols;
}

/** The viewport as WebP at one image pixel per CSS pixel (412×823), which keeps it to tens of kilobytes. */
async function captureViewport(cdp: CDPSession): Promise<Screenshot> {
  const { cssVisualViewport } = await cdp.send("Page.getLayoutMetrics");
  const { data } = await cdp.send("Page.captureScreenshot", {
    format: "webp",
    quality: 60,
    captureBeyondViewport: false,
    clip: {
      x: cssVisualViewport.pageX,
      y: cssVisualViewport.pageY,
      width: viewport.width,
      height: viewport.height,
      // Relative to CSS pixels, whatever the device pixel ratio.
      scale: 1,
    },
  });
  return {
    mediaType: "image/webp",
    width: viewport.width,
    height: viewport.height,
    data: Buffer.from(data, "base64"),
  };
}

interface NavigationEntries {
  ttfb: number;
  responseEnd: number;
  domContentLoaded: number;
  load: number;
  fcp: number | null;
  transfer: number | null;
}

/** The trace's metrics, with the elements they name described from the live document. */
async function labMetrics(cdp: CDPSession, events: TraceEvent[]): Promise<RenderedMetrics | null> {
  const metrics = metricsFromTrace(events);
  if (!metrics) return null;
  const lcp = metrics.largestContentfulPaint;
  const shifts = [];
  for (const shift of metrics.layoutShifts) {
    const elements = [];
    for (const id of shift.backendNodeIds.slice(0, 3)) {
      const element = await describeElement(cdp, id);
      if (element) elements.push(element);
    }
    shifts.push({ atMs: shift.atMs, score: Math.round(shift.score * 10_000) / 10_000, elements });
  }
  return {
    firstContentfulPaintMs: metrics.firstContentfulPaintMs,
    largestContentfulPaintMs: lcp?.ms ?? null,
    largestContentfulPaintType: lcp?.type ?? null,
    largestContentfulPaintElement: lcp?.backendNodeId ? await describeElement(cdp, lcp.backendNodeId) : null,
    cumulativeLayoutShift: metrics.cumulativeLayoutShift,
    layoutShifts: shifts,
    interactiveMs: metrics.interactiveMs,
    totalBlockingTimeMs: metrics.totalBlockingTimeMs,
    longTasks: metrics.longTasks,
  };
}

/** "<img src=… alt=…>" for a node of the document, or null when it is gone or not an element. */
async function describeElement(cdp: CDPSession, backendNodeId: number): Promise<MetricElement | null> {
  try {
    const { node } = await cdp.send("DOM.describeNode", { backendNodeId });
    if (node.nodeType !== 1) return null;
    const tag = node.localName || node.nodeName.toLowerCase();
    const pairs = node.attributes ?? [];
    const attributes: string[] = [];
    let src: string | null = null;
    for (let index = 0; index + 1 < pairs.length; index += 2) {
      const name = pairs[index] as string;
      const value = (pairs[index + 1] as string).slice(0, 100);
      if (name === "src") src = pairs[index + 1] as string;
      attributes.push(value === "" ? name : `${name}="${value.replaceAll('"', "&quot;")}"`);
    }
    const html = `<${[tag, ...attributes].join(" ")}>`;
    return {
      html: html.length > 200 ? `${html.slice(0, 199)}…` : html,
      imageUrl: tag === "img" ? src : null,
    };
  } catch {
    return null;
  }
}

async function navigationTiming(page: Page, started: number): Promise<NavigationTiming> {
  // Runs in the page (a string, since this project compiles without the DOM's types).
  const entries = await page.evaluate<NavigationEntries>(`(() => {
    const navigation = performance.getEntriesByType("navigation")[0];
    const paint = performance.getEntriesByName("first-contentful-paint")[0];
    return {
      ttfb: navigation ? navigation.responseStart : 0,
      responseEnd: navigation ? navigation.responseEnd : 0,
      domContentLoaded: navigation ? navigation.domContentLoadedEventEnd : 0,
      load: navigation ? navigation.loadEventEnd : 0,
      fcp: paint ? paint.startTime : null,
      transfer: navigation && navigation.transferSize > 0 ? navigation.transferSize : null,
    };
  })()`);
  return {
    ttfbMs: Math.round(entries.ttfb),
    responseEndMs: Math.round(entries.responseEnd),
    domContentLoadedMs: Math.round(entries.domContentLoaded),
    loadMs: Math.round(entries.load),
    firstContentfulPaintMs: entries.fcp === null ? null : Math.round(entries.fcp),
    transferBytes: entries.transfer,
    totalMs: Math.round(performance.now() - started),
  };
}

/** Listens to the page and its context and keeps bounded records of what went wrong. */
class FactsRecorder {
  mainRequest: Request | null = null;
  private requestCount = 0;
  private readonly failed: FailedRequest[] = [];
  private failedCount = 0;
  private readonly console: ConsoleProblem[] = [];
  private consoleCount = 0;
  private dialogs = 0;
  private popups = 0;

  constructor(private readonly proxy: GuardProxy) {}

  watch(context: BrowserContext, page: Page): void {
    context.on("page", (opened) => {
      if (opened === page) return;
      this.popups++;
      opened.close().catch(() => {});
    });
    page.on("dialog", (dialog) => {
      this.dialogs++;
      dialog.dismiss().catch(() => {});
    });
    page.on("console", (message) => {
      if (message.type() !== "error") return;
      // Chromium logs every failed subresource as "Failed to load resource: …" (the favicon it asks for
      // itself included); those are failed requests, judged by failed-requests, not errors of the page's code.
      if (message.text().startsWith("Failed to load resource:")) return;
      const { url, lineNumber } = message.location();
      this.problem("console-error", message.text(), url ? `${url}:${lineNumber + 1}` : null);
    });
    page.on("pageerror", (error) => this.problem("uncaught-exception", error.message, null));
    page.on("request", () => {
      this.requestCount++;
    });
    page.on("requestfailed", (request) => {
      this.failure(request, null, request.failure()?.errorText ?? "net::ERR_FAILED");
    });
    page.on("response", (response) => {
      if (response.status() >= 400) this.failure(response.request(), response.status(), null);
    });
  }

  facts(): RenderedFacts {
    const stats = this.proxy.stats;
    return {
      requestCount: this.requestCount,
      bytesReceived: stats.bytesReceived,
      failedRequests: [...this.failed],
      failedRequestCount: this.failedCount,
      consoleProblems: [...this.console],
      consoleProblemCount: this.consoleCount,
      refusals: [...stats.refusals],
      limitReached: stats.limitReached,
      dialogs: this.dialogs,
      popups: this.popups,
    };
  }

  private failure(request: Request, status: number | null, error: string | null): void {
    if (request === this.mainRequest) return;
    this.failedCount++;
    if (this.failed.length >= maxFailedRecords) return;
    this.failed.push({
      url: request.url(),
      resourceType: request.resourceType(),
      status,
      error,
      blocked: refusalOf(this.proxy, request.url()) !== undefined,
    });
  }

  private problem(kind: ConsoleProblem["kind"], text: string, location: string | null): void {
    this.consoleCount++;
    if (this.console.length < maxConsoleRecords) {
      this.console.push({ kind, text: text.slice(0, textLimit), location });
    }
  }
}
