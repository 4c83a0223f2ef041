/**
 * What rendering one page in Chromium produces: the rendered document's HTML (parsed by parse.ts into the same
 * DocumentFacts as a raw fetch), the main response as the browser received it (for ResponseFacts), and the
 * facts only a browser knows: failed subresources, console errors and uncaught exceptions, request and byte
 * counts, a viewport screenshot and navigation timings.
 */
import type { AccessibilityOutcome } from "../checks/accessibility/axe-audit.js";
import type { ProxyRefusal } from "./guard-proxy.js";
import type { LongTask } from "./trace-metrics.js";

export interface RenderedPage {
  requestedUrl: string;
  /** The URL of the document after every redirect (HTTP and client-side ones before load). */
  finalUrl: string;
  main: MainResponse;
  /** The rendered DOM serialised as HTML once the page settled (scripts run, load fired, network quiet). */
  html: string;
  facts: RenderedFacts;
  screenshot: Screenshot;
  timing: NavigationTiming;
  /** Lab Web Vitals from the page's trace; null when the trace held no navigation to measure. */
  metrics: RenderedMetrics | null;
  /** axe-core's audit of the rendered page (Lighthouse's accessibility rules), or why it could not run. */
  accessibility: AccessibilityOutcome;
}

/** An element named by a metric, as a short rendering of its start tag. */
export interface MetricElement {
  html: string;
  /** For an image element, its src. */
  imageUrl: string | null;
}

/** Milliseconds from navigation start; CLS is unitless. Computed as in trace-metrics.ts. */
export interface RenderedMetrics {
  firstContentfulPaintMs: number | null;
  largestContentfulPaintMs: number | null;
  /** "image" or "text", and the element, when Chromium named it and it is still in the document. */
  largestContentfulPaintType: string | null;
  largestContentfulPaintElement: MetricElement | null;
  cumulativeLayoutShift: number;
  /** The shifts of the largest session window, largest first, with the elements they moved (up to 5). */
  layoutShifts: Array<{ atMs: number; score: number; elements: MetricElement[] }>;
  interactiveMs: number | null;
  totalBlockingTimeMs: number | null;
  longTasks: LongTask[];
}

export interface MainResponse {
  status: number;
  /** "h2", "http/1.1", …, as Chromium negotiated it with the final origin. */
  protocol: string;
  /** Header names lower-cased; repeated headers joined with ", " (Set-Cookie with "\n", as Chromium does). */
  headers: Record<string, string>;
  /** Each HTTP redirect the browser followed, in order. */
  redirects: Array<{ url: string; status: number; location: string }>;
  /** The served HTML as bytes, before any script ran. */
  body: Buffer;
}

export interface FailedRequest {
  url: string;
  /** Chromium's resource type: "image", "script", "stylesheet", "fetch", … */
  resourceType: string;
  /** The HTTP status for an error answer (≥ 400), or null when no answer came. */
  status: number | null;
  /** Chromium's network error ("net::ERR_…"), or null for an HTTP error answer. */
  error: string | null;
  /** True when the address guard refused it (the proxy answered, not the site). */
  blocked: boolean;
}

export interface ConsoleProblem {
  kind: "console-error" | "uncaught-exception";
  /** The message, cut to 500 characters. */
  text: string;
  /** The script and line it came from, when Chromium knows it. */
  location: string | null;
}

export interface RenderedFacts {
  /** Requests the page made, the document and every redirect hop included. */
  requestCount: number;
  /** Bytes received through the proxy: response bodies of plain requests, every byte of tunnels (TLS). */
  bytesReceived: number;
  /** Up to 100 subresources that failed; failedRequestCount holds how many failed in all. */
  failedRequests: FailedRequest[];
  failedRequestCount: number;
  /** Up to 50; consoleProblemCount holds how many there were. */
  consoleProblems: ConsoleProblem[];
  consoleProblemCount: number;
  /** Requests the address guard refused (up to 200). */
  refusals: ProxyRefusal[];
  /** The per-page cap the page ran into, or null. */
  limitReached: "requests" | "bytes" | null;
  /** Dialogs (alert, confirm, prompt, beforeunload) the page opened; each was dismissed. */
  dialogs: number;
  /** Windows the page opened (window.open, target=_blank clicks); each was closed at once. */
  popups: number;
}

export interface Screenshot {
  mediaType: "image/webp" | "image/jpeg";
  width: number;
  height: number;
  data: Buffer;
}

/** Milliseconds from navigation start, from the page's own Navigation Timing and Paint Timing entries. */
export interface NavigationTiming {
  /** From the first request to the response's first byte, redirects included. */
  ttfbMs: number;
  /** From the first request to the last byte of the document. */
  responseEndMs: number;
  domContentLoadedMs: number;
  loadMs: number;
  /** Paint Timing's first-contentful-paint, or null when nothing was painted. */
  firstContentfulPaintMs: number | null;
  /** The document's bytes on the wire (Navigation Timing's transferSize), or null when unknown. */
  transferBytes: number | null;
  /** From starting the render to taking the snapshot. */
  totalMs: number;
}
