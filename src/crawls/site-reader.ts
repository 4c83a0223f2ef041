/**
 * What a crawl reads from a site besides its pages: robots.txt (once, at the start) and the sitemaps it names
 * (or /sitemap.xml): sitemap indexes followed one level, gzip unpacked, every file and the URLs taken capped, so
 * a sitemap bomb costs a bounded amount of memory and time. Every request goes through the address guard.
 */
import { gunzipSync } from "node:zlib";
import type { ConnectionGuard } from "../analysis/fetch/connection-guard.js";
import { FetchFailure } from "../analysis/fetch/fetch-failure.js";
import { GuardedAgent } from "../analysis/fetch/guarded-agent.js";
import { guardedGet } from "../analysis/fetch/guarded-get.js";

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

  constructor(private readonly outbound: Outbound) {
    this.agent = new GuardedAgent(outbound.guard, {
      connectTimeoutMs: 5_000,
      headersTimeoutMs: timeoutMs,
      bodyTimeoutMs: timeoutMs,
      extraCaCertificates: outbound.extraCaCertificates,
    });
  }

  /** robots.txt's text, or null when the site has none (or it cannot be read: then nothing is disallowed). */
  async robotsTxt(origin: string): Promise<string | null> {
    const body = await this.get(new URL("/robots.txt", origin), 500 * 1024, "truncate");
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
      const xml = unpack(body);
      if (xml === null) continue;
      const entries = locs(xml);
      if (/<sitemapindex[\s>]/i.test(xml)) queue.push(...entries);
      else for (const entry of entries) if (urls.length < limit) urls.push(entry);
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
      });
      return response.status >= 200 && response.status < 300 ? response.body : null;
    } catch (error) {
      if (error instanceof FetchFailure) return null;
      throw error;
    }
  }
}

/** The XML text of a sitemap, gunzipped when it is a gzip file (capped like the download); null when broken. */
function unpack(body: Buffer): string | null {
  if (body[0] === 0x1f && body[1] === 0x8b) {
    try {
      return gunzipSync(body, { maxOutputLength: maxSitemapBytes }).toString("utf8");
    } catch {
      return null;
    }
  }
  return body.toString("utf8");
}

/** The <loc> values of a sitemap or sitemap index, entities decoded. */
function locs(xml: string): string[] {
  return [...xml.matchAll(/<loc>\s*([^<]+?)\s*<\/loc>/gi)].map((match) =>
    (match[1] as string)
      .replaceAll("&amp;", "&")
      .replaceAll("&lt;", "<")
      .replaceAll("&gt;", ">")
      .replaceAll("&quot;", '"')
      .replaceAll("&apos;", "'"),
  );
}

/** The Crawl-delay in seconds for `agent` (its own group, else `*`), or 0. */
export function crawlDelayOf(robotsTxt: string, agent: string): number {
  const delays = new Map<string, number>();
  let agents: string[] = [];
  let lastWasAgent = false;
  for (const raw of robotsTxt.split(/\r\n|\r|\n/)) {
    const line = raw.replace(/#.*$/, "").trim();
    const colon = line.indexOf(":");
    if (colon < 0) continue;
    const field = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (field === "user-agent") {
      agents = lastWasAgent ? [...agents, value.toLowerCase()] : [value.toLowerCase()];
      lastWasAgent = true;
      continue;
    }
    lastWasAgent = false;
    if (field === "crawl-delay" && /^\d+(\.\d+)?$/.test(value)) {
      for (const name of agents) delays.set(name, Math.min(Number(value), 60));
    }
  }
  return delays.get(agent.toLowerCase()) ?? delays.get("*") ?? 0;
}
