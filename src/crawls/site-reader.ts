/**
 * What a crawl reads from a site besides its pages: robots.txt (once, at the start) and the sitemaps it names
 * (or /sitemap.xml): sitemap indexes followed, gzip unpacked, every file and the URLs taken capped, so a
 * sitemap bomb costs a bounded amount of memory and time; each file is read as XML by sitemap-xml.ts. robots.txt
 * is read up to its 500 KiB limit and parsed by robots-txt.ts. Every request goes through the address guard,
 * and each hop takes its turn among the crawl's requests (politeness, the crawl's headers: site-requests.ts).
 */
import type { ConnectionGuard } from "../analysis/fetch/connection-guard.js";
import { FetchFailure } from "../analysis/fetch/fetch-failure.js";
import { GuardedAgent } from "../analysis/fetch/guarded-agent.js";
import { guardedGet } from "../analysis/fetch/guarded-get.js";
import type { SiteRequests } from "../analysis/fetch/site-requests.js";
import { robotsTxtMaxBytes } from "../analysis/robots/robots-txt.js";
import { readSitemap } from "./sitemap-xml.js";

export interface Outbound {
  guard: ConnectionGuard;
  extraCaCertificates: string | null;
  userAgent: string;
}

/** Caps on what sitemaps may cost. */
const maxSitemapBytes = 10 * 1024 * 1024;
const maxSitemaps = 20;
const timeoutMs = 15_000;

export class SiteReader {
  private readonly agent: GuardedAgent;

  constructor(
    private readonly outbound: Outbound,
    private readonly site?: SiteRequests,
  ) {
    this.agent = new GuardedAgent(outbound.guard, {
      connectTimeoutMs: 5_000,
      headersTimeoutMs: timeoutMs,
      bodyTimeoutMs: timeoutMs,
      extraCaCertificates: outbound.extraCaCertificates,
    });
  }

  /** robots.txt's text, or null when the site has none (or it cannot be read: then nothing is disallowed). */
  async robotsTxt(origin: string): Promise<string | null> {
    const body = await this.get(new URL("/robots.txt", origin), robotsTxtMaxBytes, "truncate");
    return body?.toString("utf8") ?? null;
  }

  /** Page URLs listed in the sitemaps (absolute, as written), at most `limit`. */
  async sitemapUrls(locations: string[], limit: number): Promise<string[]> {
    const queue = [...locations];
    const seen = new Set<string>();
    const urls: string[] = [];
    while (queue.length > 0 && seen.size < maxSitemaps && urls.length < limit) {
      const location = queue.shift() as string;
      if (seen.has(location)) continue;
      seen.add(location);
      let url: URL;
      try {
        url = new URL(location);
      } catch {
        continue;
      }
      const body = await this.get(url, maxSitemapBytes, "fail");
      if (!body) continue;
      const sitemap = await readSitemap(body, maxSitemapBytes, limit - urls.length);
      if (sitemap.index) queue.push(...sitemap.locations);
      else urls.push(...sitemap.locations);
    }
    return urls;
  }

  async close(): Promise<void> {
    await this.agent.close();
  }

  private async get(url: URL, maxBytes: number, overLimit: "fail" | "truncate"): Promise<Buffer | null> {
    try {
      const response = await guardedGet(this.agent, url, {
        accept: "*/*",
        acceptEncoding: "gzip, br",
        userAgent: this.outbound.userAgent,
        timeoutMs,
        maxBodyBytes: maxBytes,
        maxRedirects: 5,
        readBody: true,
        overLimit,
        site: this.site,
      });
      return response.status >= 200 && response.status < 300 ? response.body : null;
    } catch (error) {
      if (error instanceof FetchFailure) return null;
      throw error;
    }
  }
}
