/**
 * The id in a page's path (a report, an analysis, a crawl, a webhook): a positive whole number no larger than
 * the store's integer columns hold. Anything else names nothing, so it is answered like a missing resource
 * without asking the store (PostgreSQL would refuse a larger number in the query).
 */

/** The largest id the store's integer columns hold (PostgreSQL's `integer`). */
const largestId = 2_147_483_647;

export function pathId(raw: string): number | null {
  if (!/^[1-9][0-9]{0,9}$/.test(raw)) return null;
  const id = Number(raw);
  return id <= largestId ? id : null;
}
