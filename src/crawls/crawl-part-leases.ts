/**
 * The leases a crawl's parts hold and how long an idle part waits. A claimed page, the right to seed the
 * frontier and the right to finish the crawl each hold for a while without renewal, so another part takes over
 * from one that died; `renewingWhile` keeps one alive while the work under it lasts.
 */

/**
 * How long a part's claim on a page holds without renewal; the part renews it every third of that while it
 * works on the page, so the pages of a part that died go back to the queue within this time.
 */
export const pageLeaseMs = 30_000;
/** How long the part reading robots.txt and the sitemaps holds that right (their reads have deadlines). */
export const seedLeaseMs = 5 * 60_000;
/** How long the part judging the finished crawl holds that right before another may take it. */
export const finishLeaseMs = 60_000;
/** How often an idle part looks again while others still fetch pages that may add more. */
export const idlePollMs = 200;

export function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Runs `work`, calling `renew` every `everyMs` meanwhile; a missed renewal is ignored (the next one counts). */
export async function renewingWhile<T>(
  everyMs: number,
  renew: () => Promise<unknown>,
  work: () => Promise<T>,
): Promise<T> {
  const renewal = setInterval(() => {
    renew().catch(() => {});
  }, everyMs);
  try {
    return await work();
  } finally {
    clearInterval(renewal);
  }
}
