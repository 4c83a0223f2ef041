/**
 * The URL lists inside a site finding, bounded where a crawl's issues are listed (`GET /crawls/{id}/issues` and
 * the crawl page): a group of pages (`pages`: duplicate titles, descriptions, content) lists its first
 * `listedGroupPages`, a redirect chain (`chain`) its first `listedChainUrls` URLs (the start and 10 hops). A
 * list cut says how long it is (`page_count`, or `hop_count` for a chain) and where the whole of it is paged
 * (`pages_url` / `chain_url`: `GET /crawls/{id}/issues/{check}/findings/{fingerprint}/urls`, the web page
 * `/crawls/{id}/issues/{check}/findings/{fingerprint}`). The comparison of two crawls lists its new and
 * resolved findings the same way (each linking to its own crawl's list), and a crawl's shared audit (its page and
 * PDF) with the counts but no link, its visitors being unable to open the signed-in list. A finding within these
 * bounds is shown exactly as stored; the stored findings, the issues CSV and the CLI keep every URL.
 */

export const listedGroupPages = 20;
export const listedChainUrls = 11;

/** URLs per page of a finding's whole list (the API's default is the API's, 10, at most 100). */
export const findingUrlsPerPage = 50;

interface UrlList {
  field: "pages" | "chain";
  listed: number;
  /** The total it gives when cut, from the list's length. */
  count: [name: string, of: (length: number) => number];
  link: string;
}

const urlLists: UrlList[] = [
  { field: "pages", listed: listedGroupPages, count: ["page_count", (length) => length], link: "pages_url" },
  {
    field: "chain",
    listed: listedChainUrls,
    count: ["hop_count", (length) => length - 1],
    link: "chain_url",
  },
];

/** The keys of a cut finding that hold the address of its whole list (shown as a link, not as a fact). */
export const wholeListLinkKeys: readonly string[] = urlLists.map((list) => list.link);

/** The URL list a finding holds (a group's pages, a chain's URLs), or null for a finding about one URL. */
export function findingUrls(item: Record<string, unknown>): string[] | null {
  for (const { field } of urlLists) {
    const list = item[field];
    if (Array.isArray(list)) return list as string[];
  }
  return null;
}

/**
 * The finding with its URL list cut to its first entries when longer, with the total and `linkTo(fingerprint)`
 * (where the whole list is paged; none when `linkTo` is null) beside it; as it is otherwise.
 */
export function withBoundedUrls(
  item: Record<string, unknown>,
  linkTo: ((fingerprint: string) => string) | null,
): Record<string, unknown> {
  for (const { field, listed, count, link } of urlLists) {
    const list = item[field];
    if (!Array.isArray(list) || list.length <= listed) continue;
    const [name, of] = count;
    const fingerprint = typeof item.fingerprint === "string" ? item.fingerprint : null;
    return {
      ...item,
      [field]: list.slice(0, listed),
      [name]: of(list.length),
      ...(fingerprint && linkTo ? { [link]: linkTo(fingerprint) } : {}),
    };
  }
  return item;
}

/** The web page of a finding's whole URL list. */
export function findingPath(crawlId: number, check: string, fingerprint: string): string {
  return `/crawls/${crawlId}/issues/${encodeURIComponent(check)}/findings/${fingerprint}`;
}

/** The API's list of a finding's whole URL list. */
export function apiFindingUrlsPath(crawlId: number, check: string, fingerprint: string): string {
  return `/api/v1${findingPath(crawlId, check, fingerprint)}/urls`;
}
