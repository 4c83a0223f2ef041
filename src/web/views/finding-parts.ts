/**
 * A site check's finding as the pages show it, in three parts: the page or group of pages it is about, its
 * other facts in words ("status: 404"), and the pages linking to it. The crawl's site issues (a table row) and
 * the comparison of two crawls (a list item) lay the same parts out each their way.
 */

export interface FindingParts {
  /** The finding's page (`url`), or the pages of its group (`pages`). */
  urls: string[];
  /** Every other fact but the fingerprint, as "name: value" (nulls left out). */
  facts: string[];
  /** The pages linking to it, as listed (`sources`). */
  sources: string[];
}

const shownApart = ["url", "pages", "sources", "fingerprint"];

/** `alsoApart`: keys the caller shows its own way (a whole list's count and link) or not at all. */
export function findingParts(item: Record<string, unknown>, alsoApart: readonly string[] = []): FindingParts {
  const urls =
    typeof item.url === "string" ? [item.url] : Array.isArray(item.pages) ? (item.pages as string[]) : [];
  const facts = Object.entries(item)
    .filter(([key, value]) => !shownApart.includes(key) && !alsoApart.includes(key) && value !== null)
    .map(
      ([key, value]) =>
        `${key.replaceAll("_", " ")}: ${typeof value === "object" ? JSON.stringify(value) : String(value)}`,
    );
  const sources = Array.isArray(item.sources) ? (item.sources as string[]) : [];
  return { urls, facts, sources };
}
