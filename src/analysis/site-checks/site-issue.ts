/**
 * What site checks share: how a check is described, how its findings become a `SiteIssue` (every finding given
 * its fingerprint by the check's rule; at most 100 items listed, the rest counted in `truncated`).
 */
import { fingerprintOf } from "./finding-fingerprint.js";
import type { SiteIssue, SiteIssueItem } from "./site-facts.js";

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

export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}
