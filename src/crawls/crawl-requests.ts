/**
 * Every request one part of a crawl makes to the site, whoever sends it (the page fetch and its redirect hops,
 * the host probes, robots.txt and the sitemaps, the rendered page's load), goes through here (SiteRequests):
 * the part sends one request at a time, so a crawl never has more requests open than it has parts
 * (PAGEGRADE_CRAWL_HOST_CONCURRENCY); each start on the crawl's hosts is taken from the crawl's shared
 * politeness (`FrontierStore.nextRequestAt`: starts the delay apart across parts, none before a pause ends);
 * and the crawl's headers go on requests to its own hosts only (its project's hosts on the start URL's port, or
 * on the default ports when that is the start URL's; never over http when the crawl started on https), decided
 * for each request, so a redirect to another host carries none.
 */
import { inScope } from "../analysis/crawl-url.js";
import type { RequestTurn, SiteRequests } from "../analysis/fetch/site-requests.js";
import type { FrontierStore } from "./frontier-store.js";

/** The longest wait for the next request a part spends in its worker's slot; a longer one it spends queued. */
export const waitInSlotMs = 1_000;

/**
 * With no delay between requests the shared politeness holds only a pause's end (a 429 or 503), so a read of it
 * serves the part's requests for this long: a page's own requests (its fetch right after the part's check, a
 * redirect hop, a probe) cost no read each. A pause another part sets is honoured from that part's next read,
 * at most this much later; one this part sets, at once.
 */
export const pauseReadFreshMs = 250;

export class CrawlRequests implements SiteRequests {
  readonly cacheScope: string | null;
  /** Settles when the part's request before the last one asked for is done. */
  private last: Promise<void> = Promise.resolve();
  private readonly start: URL;
  /** The crawl's next request start as last read (no delay: a pause's end) and when it was read. */
  private lastRead: { nextMs: number; atMs: number } | undefined;

  constructor(
    private readonly crawl: { id: number; url: string; project: string },
    private readonly frontier: FrontierStore,
    /** The least time between request starts now (the setting, or robots.txt's Crawl-delay once read). */
    private readonly delayMs: () => number,
    private readonly headers: Record<string, string>,
  ) {
    this.cacheScope = Object.keys(headers).length > 0 ? `crawl ${crawl.id}` : null;
    this.start = new URL(crawl.url);
  }

  async turn(url: URL): Promise<RequestTurn> {
    const before = this.last;
    let release = () => {};
    this.last = new Promise((resolve) => {
      release = resolve;
    });
    await before;
    try {
      if (this.isSite(url)) await this.startPolitely();
    } catch (error) {
      release();
      throw error;
    }
    return { headers: this.headersFor(url), done: release };
  }

  headersFor(url: URL): Record<string, string> {
    if (!this.isSite(url)) return {};
    if (this.start.protocol === "https:" && url.protocol !== "https:") return {};
    // URL leaves `port` empty for the scheme's default port: empty matches empty (80 and 443 alike).
    if (url.port !== this.start.port) return {};
    return { ...this.headers };
  }

  private isSite(url: URL): boolean {
    return (url.protocol === "https:" || url.protocol === "http:") && inScope(url.href, this.crawl.project);
  }

  /**
   * Waits until the crawl's next request to the site may start, and takes that start. A request inside a page's
   * analysis (a host probe) never holds its worker's slot longer than `waitInSlotMs`: when the next start is
   * further away (a long Crawl-delay), it goes without waiting and takes no start. Pages themselves wait queued
   * (the crawler's `politely`), so the delay still spaces every page.
   */
  private async startPolitely(): Promise<void> {
    const next = await this.nextStartMs();
    if (next - Date.now() > waitInSlotMs) return;
    const delayMs = this.delayMs();
    const startAt =
      delayMs === 0 ? next : await this.frontier.nextRequestAt(this.crawl.id, delayMs, Date.now());
    const wait = startAt - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }

  /**
   * When the crawl's next request to the site may start (ms since the epoch), taking nothing: read from the
   * crawl, or with no delay from a read made less than `pauseReadFreshMs` ago.
   */
  async nextStartMs(): Promise<number> {
    const now = Date.now();
    if (this.delayMs() === 0 && this.lastRead && now - this.lastRead.atMs < pauseReadFreshMs) {
      return Math.max(this.lastRead.nextMs, now);
    }
    const nextMs = await this.frontier.nextRequestAt(this.crawl.id, 0, now);
    this.lastRead = { nextMs, atMs: now };
    return nextMs;
  }

  /** This part paused the crawl's requests until `untilMs` (its next read of the pause need not wait). */
  paused(untilMs: number): void {
    if (this.lastRead) this.lastRead.nextMs = Math.max(this.lastRead.nextMs, untilMs);
  }
}
