/**
 * The PageSnapshot: every fact the checks judge, collected once (fetch, host probes, one parse). Checks read
 * only this; they never fetch, parse or look at the clock. URLs are absolute (resolved against the page's base
 * URL) unless a field says "raw". `html` fields hold a short rendering of the element's start tag, for evidence.
 */
import type { AccessibilityOutcome } from "./checks/accessibility/axe-audit.js";
import type { ConsoleProblem, FailedRequest, RenderedMetrics } from "./render/rendered-page.js";
import type { RobotsTxt } from "./robots/robots-txt.js";
import type { StructuredData } from "./structured-data/structured-items.js";

export interface PageSnapshot {
  /** The URL as submitted (normalised). */
  requestedUrl: string;
  /** Where redirects ended: the URL of the analysed document. */
  finalUrl: string;
  response: ResponseFacts;
  charset: CharsetFacts;
  document: DocumentFacts;
  probes: HostProbes;
  /**
   * What only a browser knows, in rendered mode (the page loaded in Chromium; `document` is then the rendered
   * DOM). Absent in raw mode, where the rendered-only checks are `na`.
   */
  rendered?: RenderedFactsSnapshot;
}

export interface RenderedFactsSnapshot {
  /** Lab Web Vitals from the page's trace; null when the trace held no navigation to measure. */
  metrics: RenderedMetrics | null;
  /** Up to 100 subresources that failed; `failedRequestCount` says how many in all. */
  failedRequests: FailedRequest[];
  failedRequestCount: number;
  /** Up to 50 console errors and uncaught exceptions; `consoleProblemCount` says how many in all. */
  consoleProblems: ConsoleProblem[];
  consoleProblemCount: number;
  /** The document as served, before any script ran: what a crawler that does not run scripts reads. */
  rawDocument: DocumentFacts;
  /** What axe-core said of the rendered page, or why it could not run (checks/accessibility/axe-audit.ts). */
  accessibility: AccessibilityOutcome;
}

export interface ResponseFacts {
  status: number;
  /** "h2" or "http/1.1", as negotiated with the final origin. */
  protocol: string;
  /** Header names lower-cased; repeated headers joined with ", ". */
  headers: Record<string, string>;
  redirects: Array<{ url: string; status: number; location: string }>;
  /** Resolving and connecting to the final origin, TLS included; null when not measured. */
  connectMs: number | null;
  /** Time to first byte of the final hop. */
  ttfbMs: number;
  /** From the first request to the last byte, redirects included. */
  totalMs: number;
  /** Bytes on the wire for the document body. */
  transferBytes: number;
  /** Size of the decoded HTML in bytes. */
  htmlBytes: number;
  /** Content codings applied by the server, e.g. ["br"]. */
  contentEncoding: string[];
  /** The media type of Content-Type, lower-cased ("text/html"). */
  mediaType: string;
}

export interface CharsetFacts {
  /** Canonical encoding name used to decode ("utf-8", "windows-1252"). */
  encoding: string;
  /** Where the declaration came from; null when nothing declared it. */
  declaredIn: "byte-order-mark" | "content-type" | "meta" | null;
  /** The label as declared (may be unsupported), or null. */
  declaredLabel: string | null;
}

export interface ElementRef {
  /** Short rendering of the element's start tag. */
  html: string;
}

export interface LinkElement extends ElementRef {
  rel: string[];
  /** Raw href attribute. */
  rawHref: string | null;
  href: string | null;
  hreflang: string | null;
  type: string | null;
  media: string | null;
  inHead: boolean;
}

export interface MetaElement {
  name: string | null;
  property: string | null;
  httpEquiv: string | null;
  content: string | null;
  charset: string | null;
  /** Whether it is in the <head>, the only place where the HTML standard gives a named <meta> its meaning. */
  inHead: boolean;
}

export interface Anchor extends ElementRef {
  /** Raw href attribute; null when the element has none. */
  rawHref: string | null;
  /** Resolved absolute URL, or null when the href does not parse. */
  href: string | null;
  /**
   * Anchor text as search engines read it: the text content with the alt of images inside; only when that is
   * empty, the title attribute (Google's fallback). aria-label, for screen readers, is not read.
   */
  text: string;
  rel: string[];
  target: string | null;
  /** Inside an element the browser does not render (hidden attribute, inline display:none), or one itself. */
  hidden: boolean;
}

export interface ImageElement extends ElementRef {
  src: string | null;
  /** URLs of the srcset candidates. */
  srcset: string[];
  alt: string | null;
  width: string | null;
  height: string | null;
  loading: string | null;
  decorative: boolean;
  /** Media types offered by <source type> siblings inside a <picture>. */
  pictureSourceTypes: string[];
  /** Inside an element the browser does not render (hidden attribute, inline display:none), or one itself. */
  hidden: boolean;
}

export interface ScriptElement extends ElementRef {
  src: string | null;
  type: string | null;
  async: boolean;
  defer: boolean;
  inHead: boolean;
}

export interface EmbeddedResource extends ElementRef {
  tag: string;
  url: string;
  lazy: boolean;
}

export interface FormElement extends ElementRef {
  action: string | null;
  method: string;
  hasPassword: boolean;
}

export interface DocumentFacts {
  /** "no-quirks" (standards), "limited-quirks" or "quirks". */
  mode: string;
  doctype: { name: string; publicId: string; systemId: string } | null;
  lang: string | null;
  /** Text of every <title> element of the document (not SVG titles). */
  titles: string[];
  metas: MetaElement[];
  links: LinkElement[];
  headings: Array<{ level: number; text: string }>;
  anchors: Anchor[];
  /**
   * <a> elements without href that were meant as links (they carry target, rel or another attribute that needs
   * an href, or an inline event handler): nothing a crawler can follow.
   */
  hreflessLinks: ElementRef[];
  images: ImageElement[];
  scripts: ScriptElement[];
  /** Text of each <script type="application/ld+json">. */
  jsonLd: string[];
  /** iframes, media, embeds, objects and stylesheets: everything else the page loads. */
  resources: EmbeddedResource[];
  forms: FormElement[];
  /** Password inputs anywhere in the page, inside a form or not. */
  passwordFields: number;
  /** Elements with a style attribute outside SVG. */
  inlineStyles: { count: number; samples: string[] };
  deprecatedElements: Array<ElementRef & { tag: string }>;
  microdata: boolean;
  rdfa: boolean;
  /** JSON-LD, microdata and RDFa items read within structuredDataLimits, and the JSON-LD that did not parse. */
  structuredData: StructuredData;
  elementCount: number;
  /** Visible text of the body, whitespace collapsed. */
  text: string;
  /** Length of the decoded HTML in characters. */
  htmlLength: number;
}

/** The outcome of one auxiliary request: what came back, or why nothing did. */
export type ProbeResult<T> = { ok: true; value: T } | { ok: false; reason: string };

export interface ProbeResponse {
  status: number;
  /** Lower-cased media type of Content-Type. */
  mediaType: string;
  /** Where the request ended after redirects. */
  url: string;
  redirects: Array<{ url: string; status: number; location: string }>;
  /** Decoded text body, for the probes that need it; otherwise "". */
  text: string;
}

export interface HostProbes {
  robotsTxt: ProbeResult<ProbeResponse & { parsed: RobotsTxt }>;
  /** A random path on the host: should answer 404 or 410. */
  notFound: ProbeResult<ProbeResponse>;
  /** The http:// variant of an https page, redirects followed; null for http pages. */
  httpVariant: ProbeResult<ProbeResponse> | null;
  /** /favicon.ico; null when the page declares an icon. */
  favicon: ProbeResult<ProbeResponse> | null;
  /** /sitemap.xml; null when robots.txt declares a sitemap. */
  sitemap: ProbeResult<ProbeResponse> | null;
  llmsTxt: ProbeResult<ProbeResponse>;
}
