/**
 * Collect: all the I/O of an analysis. Fetches the page through the guard, runs the host probes concurrently
 * (cached per host), has the document decoded and parsed once (by the page's session: on this thread or on the
 * analysis pool, see pool/page-session.ts), and returns the snapshot's I/O facts; the session holds the parse.
 */
import { createHash } from "node:crypto";
import type { AnalyzerOptions } from "./analyzer-options.js";
import { AddressPolicy } from "./fetch/address-policy.js";
import { ConnectionGuard } from "./fetch/connection-guard.js";
import { acceptedEncodings } from "./fetch/content-decoding.js";
import { FetchFailure, failures, retryAfterSeconds } from "./fetch/fetch-failure.js";
import { GuardedAgent } from "./fetch/guarded-agent.js";
import { type GetOptions, type GetResponse, guardedGet, redirectLocation } from "./fetch/guarded-get.js";
import { dnsServerResolver, systemResolver } from "./fetch/host-resolver.js";
import { ProbeCache } from "./fetch/probe-cache.js";
import type { SiteRequests } from "./fetch/site-requests.js";
import { mediaTypeOf } from "./media-type.js";
import type { CollectedFacts } from "./page-work.js";
import type { PageSession } from "./pool/page-session.js";
import type { BrowserPool } from "./render/browser-pool.js";
import type { Screenshot } from "./render/rendered-page.js";
import { parseRobotsTxt } from "./robots/robots-txt.js";
import type { HostProbes, ProbeResponse, ProbeResult } from "./snapshot.js";

/** The session that parses and judges a page of that many bytes (the caller releases it). */
export type SessionFor = (bytes: number) => Promise<PageSession>;

const htmlMediaTypes = new Set(["text/html", "application/xhtml+xml"]);
const documentAccept = "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5";

export class PageCollector {
  /** The address guard every connection of this collector goes through; shared with other outbound work. */
  readonly guard: ConnectionGuard;
  private readonly probeAgent: GuardedAgent;
  private readonly probeCache: ProbeCache;

  constructor(private readonly config: AnalyzerOptions) {
    const policy = new AddressPolicy({
      allowPrivateNetworks: config.allowPrivateNetworks,
      allowedRanges: config.allowedAddressRanges,
    });
    const resolver = config.dnsServers.length > 0 ? dnsServerResolver(config.dnsServers) : systemResolver;
    this.guard = new ConnectionGuard(policy, resolver);
    this.probeAgent = this.newAgent();
    this.probeCache = new ProbeCache({ ttlMs: config.probeCacheSeconds * 1000 });
  }

  /**
   * Fetches the page and has `session` parse it; throws FetchFailure when it cannot be analysed. `parseMs` is
   * the time spent decoding and parsing (CPU time, free of network waits).
   */
  async collect(
    url: URL,
    sessionFor: SessionFor,
    options: { followRedirects?: boolean; site?: SiteRequests } = {},
  ): Promise<{ facts: CollectedFacts; session: PageSession; parseMs: number }> {
    const followRedirects = options.followRedirects ?? true;
    const site = options.site;
    const early = this.startProbes(url, site);
    const agent = this.newAgent();
    let page: GetResponse;
    let protocol: string;
    let connectMs: number | null;
    try {
      page = await guardedGet(agent, url, {
        ...this.getOptions(documentAccept, this.config.fetchTimeoutMs, this.config.maxBodyBytes),
        maxRedirects: followRedirects ? this.config.maxRedirects : 0,
        overLimit: "fail",
        site,
        inspect: (status, headers) => {
          const location = followRedirects ? null : redirectLocation(url, status, headers.location);
          if (location) throw failures.redirect(status, location);
          if (status < 200 || status > 299)
            throw failures.httpStatus(status, retryAfterSeconds(headers["retry-after"]));
          const type = mediaTypeOf(headers["content-type"]);
          if (type && !htmlMediaTypes.has(type)) throw failures.notHtml(type);
        },
      });
      const facts = agent.connectionFacts(new URL(page.url));
      protocol = facts?.protocol ?? "http/1.1";
      connectMs = facts ? Math.round(facts.connectMs) : null;
    } finally {
      void agent.close();
    }
    const finalUrl = new URL(page.url);
    const mediaType = mediaTypeOf(page.headers["content-type"]);
    if (!mediaType && !looksLikeHtml(page.body)) throw failures.notHtml("");

    const probesStarted = finalUrl.origin === url.origin ? early : this.startProbes(finalUrl, site);
    const htmlBytes = page.body.length;
    const session = await sessionFor(htmlBytes);
    let parsed: Awaited<ReturnType<PageSession["parse"]>>;
    let probes: HostProbes;
    try {
      parsed = await session.parse({
        body: page.body,
        contentType: page.headers["content-type"],
        finalUrl: finalUrl.href,
        renderedHtml: null,
      });
      probes = await this.finishProbes(finalUrl, probesStarted, parsed.declaresIcon, site);
    } catch (error) {
      session.release();
      throw error;
    }
    const facts: CollectedFacts = {
      requestedUrl: url.href,
      finalUrl: finalUrl.href,
      response: {
        status: page.status,
        protocol,
        headers: page.headers,
        redirects: page.redirects,
        connectMs,
        ttfbMs: Math.round(page.ttfbMs),
        totalMs: Math.round(page.totalMs),
        transferBytes: page.transferBytes,
        htmlBytes,
        contentEncoding: (page.headers["content-encoding"] ?? "")
          .split(",")
          .map((coding) => coding.trim().toLowerCase())
          .filter((coding) => coding && coding !== "identity"),
        mediaType: mediaType || "text/html",
      },
      probes,
    };
    return { facts, session, parseMs: parsed.parseMs };
  }

  /**
   * Renders the page in Chromium (through `pool`, whose every connection goes through this collector's guard)
   * and builds the same snapshot from the rendered document, with the main response's headers and the host
   * probes of a raw analysis, plus the rendered facts. Throws FetchFailure, ChromiumUnavailable or
   * RenderFailure. The screenshot comes back beside the snapshot (checks do not judge pixels). With `site` (a
   * crawl), the page's load takes one turn of the crawl's requests, and the browser adds the crawl's headers
   * to the requests `site` gives them to.
   */
  async collectRendered(
    url: URL,
    pool: BrowserPool,
    sessionFor: SessionFor,
    site?: SiteRequests,
  ): Promise<{ facts: CollectedFacts; session: PageSession; parseMs: number; screenshot: Screenshot }> {
    const early = this.startProbes(url, site);
    const turn = await site?.turn(url);
    let rendered: Awaited<ReturnType<BrowserPool["render"]>>;
    try {
      rendered = await pool.render(url, site ? (request) => site.headersFor(request) : undefined);
    } finally {
      turn?.done();
    }
    const finalUrl = new URL(rendered.finalUrl);
    const probesStarted = finalUrl.origin === url.origin ? early : this.startProbes(finalUrl, site);
    const contentType = rendered.main.headers["content-type"];
    const session = await sessionFor(Math.max(rendered.main.body.length, rendered.html.length));
    let parsed: Awaited<ReturnType<PageSession["parse"]>>;
    let probes: HostProbes;
    try {
      parsed = await session.parse({
        body: rendered.main.body,
        contentType,
        finalUrl: finalUrl.href,
        renderedHtml: rendered.html,
      });
      probes = await this.finishProbes(finalUrl, probesStarted, parsed.declaresIcon, site);
    } catch (error) {
      session.release();
      throw error;
    }
    const { main, timing, facts: seen } = rendered;
    const facts: CollectedFacts = {
      requestedUrl: url.href,
      finalUrl: finalUrl.href,
      response: {
        status: main.status,
        protocol: main.protocol,
        headers: main.headers,
        redirects: main.redirects,
        connectMs: null,
        ttfbMs: Math.round(timing.ttfbMs),
        totalMs: Math.round(timing.responseEndMs),
        transferBytes: timing.transferBytes ?? main.body.length,
        htmlBytes: main.body.length,
        contentEncoding: (main.headers["content-encoding"] ?? "")
          .split(",")
          .map((coding) => coding.trim().toLowerCase())
          .filter((coding) => coding && coding !== "identity"),
        mediaType: mediaTypeOf(contentType) || "text/html",
      },
      probes,
      rendered: {
        metrics: rendered.metrics,
        failedRequests: seen.failedRequests,
        failedRequestCount: seen.failedRequestCount,
        consoleProblems: seen.consoleProblems,
        consoleProblemCount: seen.consoleProblemCount,
        accessibility: rendered.accessibility,
      },
    };
    return { facts, session, parseMs: parsed.parseMs, screenshot: rendered.screenshot };
  }

  async close(): Promise<void> {
    await this.probeAgent.close();
  }

  private newAgent(): GuardedAgent {
    return new GuardedAgent(this.guard, {
      connectTimeoutMs: this.config.connectTimeoutMs,
      headersTimeoutMs: this.config.headersTimeoutMs,
      bodyTimeoutMs: this.config.headersTimeoutMs,
      extraCaCertificates: this.config.extraCaCertificates,
    });
  }

  private getOptions(accept: string, timeoutMs: number, maxBodyBytes: number) {
    return {
      accept,
      acceptEncoding: acceptedEncodings,
      userAgent: this.config.userAgent,
      timeoutMs,
      maxBodyBytes,
      readBody: true,
    };
  }

  /**
   * The probes that depend only on the origin (and, for the http variant, the path). With `site` (a crawl),
   * each takes its turn among the crawl's requests and carries the headers `site` gives it.
   */
  private startProbes(url: URL, site: SiteRequests | undefined) {
    const origin = url.origin;
    const robotsTxt = this.probe(`robots ${origin}`, new URL("/robots.txt", url), site, {
      maxBodyBytes: 500 * 1024,
    });
    return {
      robotsTxt,
      notFound: this.probe(`404 ${origin}`, new URL(missingPathFor(origin), url), site, { readBody: false }),
      httpVariant:
        url.protocol === "https:"
          ? this.probe(`http ${origin}${url.pathname}`, httpVariantOf(url), site, { readBody: false })
          : null,
      llmsTxt: this.probe(`llms ${origin}`, new URL("/llms.txt", url), site, { maxBodyBytes: 100 * 1024 }),
    };
  }

  private async finishProbes(
    url: URL,
    started: ReturnType<PageCollector["startProbes"]>,
    declaresIcon: boolean,
    site: SiteRequests | undefined,
  ): Promise<HostProbes> {
    const favicon = declaresIcon
      ? null
      : this.probe(`favicon ${url.origin}`, new URL("/favicon.ico", url), site, { readBody: false });
    const robots = await started.robotsTxt;
    const robotsTxt: HostProbes["robotsTxt"] = robots.ok
      ? {
          ok: true,
          value: {
            ...robots.value,
            parsed: parseRobotsTxt(
              robots.value.status < 300 && robots.value.status >= 200 ? robots.value.text : "",
            ),
          },
        }
      : robots;
    const declaresSitemap =
      robotsTxt.ok && robotsTxt.value.status < 300 && robotsTxt.value.parsed.sitemaps.length > 0;
    const sitemap = declaresSitemap
      ? null
      : this.probe(`sitemap ${url.origin}`, new URL("/sitemap.xml", url), site, { maxBodyBytes: 4 * 1024 });
    return {
      robotsTxt,
      notFound: await started.notFound,
      httpVariant: await started.httpVariant,
      favicon: await favicon,
      sitemap: await sitemap,
      llmsTxt: await started.llmsTxt,
    };
  }

  /**
   * A host probe, from the cache shared by every analysis; one fetched with a crawl's headers is cached under
   * that crawl's scope, so no other analysis ever sees what the headers opened (nor it what they did not).
   */
  private probe(
    cacheKey: string,
    url: URL,
    site: SiteRequests | undefined,
    options: { readBody?: boolean; maxBodyBytes?: number },
  ): Promise<ProbeResult<ProbeResponse>> {
    const scope = site?.cacheScope;
    return this.probeCache.get(
      scope ? `${scope} ${cacheKey}` : cacheKey,
      async () => {
        const getOptions: GetOptions = {
          ...this.getOptions("*/*", this.config.probeTimeoutMs, options.maxBodyBytes ?? 64 * 1024),
          readBody: options.readBody ?? true,
          maxRedirects: this.config.maxRedirects,
          overLimit: "truncate",
          site,
        };
        try {
          const response = await guardedGet(this.probeAgent, url, getOptions);
          return {
            ok: true as const,
            value: {
              status: response.status,
              mediaType: mediaTypeOf(response.headers["content-type"]),
              url: response.url,
              redirects: response.redirects,
              text: response.body.toString("utf8"),
            },
          };
        } catch (error) {
          const reason = error instanceof FetchFailure ? error.message : "The request failed.";
          return { ok: false as const, reason };
        }
      },
      describeProbe,
    );
  }
}

/** How much a probe result holds, and whether it is a passing problem (not the site's lasting answer). */
function describeProbe(result: ProbeResult<ProbeResponse>): { bytes: number; failed: boolean } {
  if (!result.ok) return { bytes: result.reason.length, failed: true };
  const { status, text, url } = result.value;
  return {
    bytes: text.length + url.length + 200,
    failed: status >= 500 || status === 429 || status === 403 || status === 401,
  };
}

function looksLikeHtml(body: Buffer): boolean {
  const start = body.subarray(0, 512).toString("latin1").trimStart().toLowerCase();
  return start.startsWith("<!doctype html") || start.startsWith("<html") || start.startsWith("<head");
}

function httpVariantOf(url: URL): URL {
  const variant = new URL(url.href);
  variant.protocol = "http:";
  variant.port = "";
  return variant;
}

/**
 * The path probed for the soft-404 test: one no site has, but the same for an origin every time, so the
 * evidence it leaves in a report is stable and two analyses of a page differ only where the page did.
 */
export function missingPathFor(origin: string): string {
  return `/pagegrade-missing-${createHash("sha256").update(origin).digest("hex").slice(0, 16)}`;
}
