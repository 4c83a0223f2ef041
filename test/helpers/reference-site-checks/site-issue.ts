/**
 * What site checks share: how a check is described, how its findings become a `SiteIssue` (every finding given
 * its fingerprint by the check's rule; at most 100 items listed, the rest counted in `truncated`), and the lookups most checks need (pages by URL, the pages that link
 * to a URL).
 */
import { fingerprintOf } from "../../../src/analysis/site-checks/finding-fingerprint.js";
import type { SiteFacts, SiteIssue, SiteIssueItem, SitePage } from "./reference-facts.js";

export const listedItems = 100;
export const listedSources = 5;

export interface SiteCheckInfo {
  check: string;
  category: SiteIssue["category"];
  importance: SiteIssue["importance"];
  title: string;
}

/**
 * What identifies one finding of a check (see finding-fingerprint.ts): the target for link findings, the
 * group's key for groups, the page for single pages.
 */
export type FindingIdentity<Item extends SiteIssueItem> = (item: Item) => readonly string[];

/** The identity of a finding about one URL (a page, or a link target): that URL. */
export const byUrl: FindingIdentity<SiteIssueItem> = (item) => [String(item.url)];

/** The issue for these findings, each with its fingerprint, or null when there are none. */
export function issueOf<Item extends SiteIssueItem>(
  info: SiteCheckInfo,
  found: Item[],
  message: (count: number) => string,
  identity: FindingIdentity<Item>,
): SiteIssue | null {
  if (found.length === 0) return null;
  const findings = found.map((item) => ({ ...item, fingerprint: fingerprintOf(info.check, identity(item)) }));
  return {
    ...info,
    message: message(findings.length),
    count: findings.length,
    items: findings.slice(0, listedItems),
    truncated: Math.max(0, findings.length - listedItems),
    findings,
  };
}

export function pagesByUrl(site: SiteFacts): Map<string, SitePage> {
  return new Map(site.pages.map((page) => [page.url, page]));
}

/** For each target URL, the distinct pages that link to it (in link order). */
export function sourcesByTarget(
  site: SiteFacts,
  keep: (link: SiteFacts["links"][number]) => boolean = () => true,
) {
  const sources = new Map<string, string[]>();
  for (const link of site.links) {
    if (!keep(link) || link.from === link.to) continue;
    const list = sources.get(link.to) ?? [];
    if (!list.includes(link.from)) list.push(link.from);
    sources.set(link.to, list);
  }
  return sources;
}

/** An indexable page that answered 200: what duplicate and depth findings are about. */
export function isIndexable200(page: SitePage): boolean {
  return page.indexable && page.statusCode === 200;
}

export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}
