/**
 * The pages one part of a crawl has claimed: the page in hand and, on PostgreSQL, a few claimed ahead with it in
 * one statement (`claimAhead`), so that a claim's statement, its round trip and its update of the crawl's row
 * (which every part writes) are paid once for several pages. The pages held ahead keep their leases: renewed with
 * the page in hand, and before one is taken when a third of the lease has passed. What the part has not crawled
 * when its run ends goes back to the queue (`handBackHeld`). The reports of the claimed pages' URLs are looked up
 * together, in one read (`PageCrawler.expect`). A cancelled or ended crawl is seen at the next claim, so the part
 * crawls the pages it holds first (`claimAhead` − 1 at most).
 */
import { timestamp } from "../timestamps.js";
import { pageLeaseMs } from "./crawl-part-leases.js";
import type { CrawlPageRow, CrawlRow } from "./crawl-store.js";
import type { Claim, FrontierStore } from "./frontier-store.js";
import type { PageCrawler } from "./page-crawl.js";

/**
 * Pages a part claims at once at most (PostgreSQL; SQLite claims one, in a transaction of its own process). Fewer
 * when few are queued: a part takes no more than its share of the queue, so a small frontier still spreads over
 * every part (see `FrontierClaims.claimSome`).
 */
export const claimAhead = 4;

export class PartClaims {
  /** Claimed and not yet crawled, in the order they are to be crawled. */
  private held: CrawlPageRow[] = [];
  /** When the held pages' leases were last taken or renewed (ms since the epoch). */
  private heldSince = 0;

  constructor(
    private readonly frontier: FrontierStore,
    private readonly crawl: Pick<CrawlRow, "id" | "parts">,
    private readonly part: number,
    private readonly pages: Pick<PageCrawler, "expect">,
  ) {}

  /** The next page to crawl: one held ahead, else a fresh claim (see `FrontierStore.claimSome`). */
  async next(unknownDepth: boolean): Promise<Claim> {
    if (this.held.length > 0 && Date.now() - this.heldSince >= pageLeaseMs / 3) await this.renew();
    const page = this.held.shift();
    if (page) return page;
    const claimed = await this.frontier.claimSome(
      this.crawl.id,
      this.part,
      leaseFromNow(),
      unknownDepth,
      claimAhead,
      this.crawl.parts,
    );
    if (!Array.isArray(claimed)) return claimed;
    await this.pages.expect(claimed);
    this.heldSince = Date.now();
    this.held = claimed.slice(1);
    return claimed[0];
  }

  /**
   * Extends this part's leases: the page in hand and those held ahead. A held page whose lease had run out and
   * which another part took since is dropped.
   */
  async renew(inHand?: CrawlPageRow): Promise<void> {
    const ids = [...(inHand ? [inHand.id] : []), ...this.held.map((page) => page.id)];
    const kept = new Set(await this.frontier.renewClaim(ids, this.part, leaseFromNow()));
    this.held = this.held.filter((page) => kept.has(page.id));
    this.heldSince = Date.now();
  }

  /**
   * Gives the pages held ahead back to the queue, their fetches back to the budget. A hand-back that fails
   * leaves a page `fetching` until its lease ends, when any part puts it back (`requeueStale`): nothing is lost.
   */
  async handBackHeld(): Promise<void> {
    for (const page of this.held.splice(0)) {
      await this.frontier.handBack(page.id, this.crawl.id).catch(() => {});
    }
  }
}

function leaseFromNow(): string {
  return timestamp(new Date(Date.now() + pageLeaseMs));
}
