/**
 * What site checks share: how a check is described, how its findings become a `SiteIssue` (every finding given
 * its fingerprint by the check's rule; at most 100 items listed, the rest counted in `truncated`), and where a
 * judgement that stores them puts its findings as they come (`FindingSink`): a check with many findings adds them
 * to a `FindingList`, which hands them to the sink a batch at a time and keeps only the listed ones.
 */
import { fingerprintOf } from "./finding-fingerprint.js";
import type { SiteIssue, SiteIssueItem } from "./site-facts.js";

export const listedItems = 100;
export const listedSources = 5;

/** What an issue says of its check: the part of a check's definition (site-check.ts) every issue carries. */
export interface SiteCheckInfo {
  id: string;
  category: SiteIssue["category"];
  importance: SiteIssue["importance"];
  title: string;
}

/** The check's part of its issue, in the issue's order. */
function described(info: SiteCheckInfo): Pick<SiteIssue, "check" | "category" | "importance" | "title"> {
  return { check: info.id, category: info.category, importance: info.importance, title: info.title };
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
  const findings = found.map((item) => ({ ...item, fingerprint: fingerprintOf(info.id, identity(item)) }));
  return {
    ...described(info),
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

/** Where a judgement stores every finding as it comes (the database's staging rows), holding none of them. */
export interface FindingSink {
  /** Stores these findings of `check`, the first at `position`, the others after it. */
  write(check: string, position: number, findings: SiteIssueItem[]): Promise<void>;
  /** Forgets what was stored for `check` (it failed: its issue is not reported). */
  discard(check: string): Promise<void>;
}

/** Findings a list hands to its sink at once. */
const sinkBatch = 500;

/**
 * A check's findings as they are found, in order: each given its fingerprint; with a sink, handed to it a batch
 * at a time and only the listed ones kept (the issue's `findings` then empty: they are in the sink); without
 * one, all kept, as `issueOf` keeps them.
 */
export class FindingList<Item extends SiteIssueItem> {
  private count = 0;
  private readonly listed: SiteIssueItem[] = [];
  private pending: SiteIssueItem[] = [];
  private written = 0;

  constructor(
    private readonly info: SiteCheckInfo,
    private readonly identity: FindingIdentity<Item>,
    private readonly sink?: FindingSink,
  ) {}

  async add(item: Item): Promise<void> {
    const finding = { ...item, fingerprint: fingerprintOf(this.info.id, this.identity(item)) };
    this.count++;
    if (this.listed.length < listedItems) this.listed.push(finding);
    this.pending.push(finding);
    if (this.sink && this.pending.length >= sinkBatch) await this.flush(this.sink);
  }

  /** The issue for the findings added, or null when there were none. */
  async issue(message: (count: number) => string): Promise<SiteIssue | null> {
    if (this.count === 0) return null;
    if (this.sink) await this.flush(this.sink);
    return {
      ...described(this.info),
      message: message(this.count),
      count: this.count,
      items: this.listed,
      truncated: Math.max(0, this.count - listedItems),
      findings: this.pending,
    };
  }

  private async flush(sink: FindingSink): Promise<void> {
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    await sink.write(this.info.id, this.written, batch);
    this.written += batch.length;
  }
}
