/**
 * Builds PageSnapshots for check tests from a piece of HTML and a few overrides, through the real parser, so a
 * check test reads as "this page, these headers → this status".
 */
import type { CheckDefinition, CheckOutcome } from "../../src/analysis/checks/check.js";
import { outcomeOf } from "../../src/analysis/judge.js";
import { parseDocument } from "../../src/analysis/parse.js";
import { parseRobotsTxt } from "../../src/analysis/robots/robots-txt.js";
import { defaultScoring, type Thresholds } from "../../src/analysis/scoring-config.js";
import type {
  CharsetFacts,
  HostProbes,
  PageSnapshot,
  ProbeResponse,
  ProbeResult,
  ResponseFacts,
} from "../../src/analysis/snapshot.js";

export interface PageOptions {
  url?: string;
  headers?: Record<string, string>;
  response?: Partial<ResponseFacts>;
  charset?: Partial<CharsetFacts>;
  probes?: Partial<HostProbes>;
  /** Shorthand for a robots.txt that answered 200 with this text. */
  robots?: string;
}

export function probeOk(status: number, extra: Partial<ProbeResponse> = {}): ProbeResult<ProbeResponse> {
  return {
    ok: true,
    value: {
      status,
      mediaType: "text/plain",
      url: "https://example.com/x",
      redirects: [],
      text: "",
      ...extra,
    },
  };
}

export function probeFailed(reason = "The server did not respond in time."): ProbeResult<never> {
  return { ok: false, reason };
}

/** A robots.txt probe that answered with this status and text. */
export function robotsProbe(status: number, text = ""): HostProbes["robotsTxt"] {
  return {
    ok: true,
    value: {
      status,
      mediaType: "text/plain",
      url: "https://example.com/robots.txt",
      redirects: [],
      text,
      parsed: parseRobotsTxt(text),
    },
  };
}

export function pageFrom(html: string, options: PageOptions = {}): PageSnapshot {
  const url = options.url ?? "https://example.com/guide/page";
  const robotsText = options.robots;
  const probes: HostProbes = {
    robotsTxt: robotsText === undefined ? robotsProbe(404) : robotsProbe(200, robotsText),
    notFound: probeOk(404),
    httpVariant: url.startsWith("https:")
      ? probeOk(200, {
          url,
          redirects: [{ url: url.replace("https:", "http:"), status: 301, location: url }],
        })
      : null,
    favicon: probeOk(404),
    sitemap: probeOk(404),
    llmsTxt: probeOk(404),
    ...options.probes,
  };
  return {
    requestedUrl: url,
    finalUrl: url,
    response: {
      status: 200,
      protocol: "h2",
      headers: { "content-type": "text/html; charset=utf-8", ...options.headers },
      redirects: [],
      connectMs: 10,
      ttfbMs: 100,
      totalMs: 200,
      transferBytes: html.length,
      htmlBytes: Buffer.byteLength(html),
      contentEncoding: [],
      mediaType: "text/html",
      ...options.response,
    },
    charset: { encoding: "utf-8", declaredIn: "content-type", declaredLabel: "utf-8", ...options.charset },
    document: parseDocument(html, url),
    probes,
  };
}

/** What the judge makes of one check on the page: its needs first, then the check itself. */
export function run(
  check: CheckDefinition,
  page: PageSnapshot,
  thresholds: Thresholds = defaultScoring.thresholds,
): CheckOutcome {
  return outcomeOf(check, page, thresholds);
}

/** Wraps body markup in a minimal standards-mode document. */
export function doc(body: string, head = ""): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">${head}</head><body>${body}</body></html>`;
}
