/**
 * What changed between two complete crawls of a project (`GET /crawls/{id}/diff`, the comparison page, the
 * `crawl.regressed` webhook): site findings new and resolved by fingerprint, about what both crawls could see
 * (the rest counted as coverage, finding-coverage.ts), page checks regressed and fixed on
 * the pages both crawls analysed (the rule of a report's diff, `verdictChange`), pages added, removed or changed,
 * and the regressions by importance. The database matches the findings and pages (crawl-diff-store.ts); pages'
 * check statuses are compared a batch at a time, so neither crawl is held whole. Lists are cut at 100 entries,
 * a finding's group of pages or redirect chain as the issues list cuts it (finding-url-lists.ts, linking to its
 * own crawl's whole list); the counts are complete.
 */

import { verdictChange } from "../analysis/analysis-diff.js";
import { catalogue } from "../analysis/catalogue.js";
import { Conflict, ValidationFailed } from "../errors.js";
import type { Owner } from "../store/owned-rows.js";
import type { CrawlDiffStore } from "./crawl-diff-store.js";
import type { CrawlRow, CrawlStore } from "./crawl-store.js";
import { type Coverage, decidingUrls, isChange, noCoverage } from "./finding-coverage.js";
import { apiFindingUrlsPath, withBoundedUrls } from "./finding-url-lists.js";
import { crawlObject } from "./present.js";

/** The most entries a list of the diff holds. */
export const listedChanges = 100;

/** How many diffs a process keeps once computed (each at most a few hundred kilobytes: its lists are cut). */
const rememberedDiffs = 32;

type Importance = "high" | "medium" | "low";
const importances: readonly Importance[] = ["high", "medium", "low"];
const pageCheckImportance = new Map(catalogue.map((entry) => [entry.id, entry.importance]));

export interface CrawlDiffSide {
  id: number;
  finished_at: string | null;
  score: number | null;
  pages: ReturnType<typeof crawlObject>["pages"];
}

export interface SiteIssueChange {
  check: string;
  importance: string;
  from_count: number;
  to_count: number;
  new: Array<Record<string, unknown>>;
  resolved: Array<Record<string, unknown>>;
  new_count: number;
  resolved_count: number;
  /** Findings of one crawl only about URLs the other did not reach: neither new nor resolved. */
  coverage: Coverage;
}

/** The findings of one crawl only, of one check: the changes (counted, the first listed) and the coverage. */
interface FindingsOnlyIn {
  changes: number;
  items: Array<Record<string, unknown>>;
  coverage: number;
}

function unseen(): FindingsOnlyIn {
  return { changes: 0, items: [], coverage: 0 };
}

export interface PageCheckChange {
  check: string;
  importance: string;
  regressed: number;
  fixed: number;
  pages: Array<{ url: string; from: string; to: string }>;
}

export interface CrawlDiff {
  object: "crawl_diff";
  project: string;
  from: CrawlDiffSide | null;
  to: CrawlDiffSide;
  score_change: number | null;
  pages: {
    added: string[];
    removed: string[];
    status_changed: Array<{ url: string; from: number | null; to: number | null }>;
    indexability_changed: Array<{ url: string; from: boolean; to: boolean }>;
    truncated: number;
  };
  site_issues: SiteIssueChange[];
  page_checks: PageCheckChange[];
  regressions: Record<Importance, number>;
  /** Site findings neither new nor resolved because only one crawl reached their URLs, in total. */
  coverage: Coverage;
}

/** The crawl compared is not complete (yet): there is nothing to compare. */
export class CrawlNotComplete extends Conflict {
  override readonly name = "CrawlNotComplete";
  readonly code = "crawl_not_complete";

  constructor() {
    super("Only a complete crawl can be compared; this one is not complete.");
  }
}

export class CrawlComparison {
  /**
   * Diffs computed lately, by their two crawls, least recently used first. Two complete crawls no longer change,
   * so a diff asked again (the project dashboard on every visit, the webhook and then the page) is answered from
   * here; a caller must not change what it is given. Only reached once the user's ownership of both crawls is
   * established.
   */
  private readonly remembered = new Map<string, Promise<CrawlDiff>>();

  constructor(
    private readonly crawls: CrawlStore,
    private readonly diffs: CrawlDiffStore,
  ) {}

  /**
   * The diff of the user's crawl `id` against `fromId` (default: the previous complete crawl of its project),
   * or undefined when the user has no such crawl. A `from` that is not another complete crawl of the same
   * project of the user: ValidationFailed naming `from`; a crawl not complete: CrawlNotComplete.
   */
  async diff(owner: Owner, id: number, fromId?: number): Promise<CrawlDiff | undefined> {
    const to = await this.crawls.find(owner, id);
    if (!to) return undefined;
    if (to.status !== "complete") throw new CrawlNotComplete();
    const from =
      fromId === undefined ? await this.diffs.previousComplete(to) : await this.crawls.find(owner, fromId);
    if (
      fromId !== undefined &&
      (!from || from.id === to.id || from.status !== "complete" || from.project !== to.project)
    ) {
      throw ValidationFailed.of("from", `The from crawl must be another complete crawl of ${to.project}.`);
    }
    return from ? this.compare(from, to) : emptyDiff(to);
  }

  /** The reports of the pages a diff names (its new crawl's first), for links to them. */
  reportsOf(diff: CrawlDiff): Promise<Map<string, number>> {
    const urls = [
      ...diff.site_issues.flatMap((issue) => [...issue.new, ...issue.resolved].flatMap(itemUrls)),
      ...diff.page_checks.flatMap((check) => check.pages.map((page) => page.url)),
      ...diff.pages.added,
      ...diff.pages.removed,
      ...diff.pages.status_changed.map((page) => page.url),
      ...diff.pages.indexability_changed.map((page) => page.url),
    ];
    const crawls = diff.from === null ? [diff.to.id] : [diff.to.id, diff.from.id];
    return this.diffs.reportIds(crawls, urls);
  }

  private compare(from: CrawlRow, to: CrawlRow): Promise<CrawlDiff> {
    const key = `${from.id}@${from.finished_at}>${to.id}@${to.finished_at}`;
    const known = this.remembered.get(key);
    if (known) {
      this.remembered.delete(key);
      this.remembered.set(key, known);
      return known;
    }
    const computing = this.computed(from, to);
    this.remembered.set(key, computing);
    computing.catch(() => this.remembered.delete(key));
    for (const oldest of this.remembered.keys()) {
      if (this.remembered.size <= rememberedDiffs) break;
      this.remembered.delete(oldest);
    }
    return computing;
  }

  private async computed(from: CrawlRow, to: CrawlRow): Promise<CrawlDiff> {
    const [siteIssues, pageChecks, pages] = await Promise.all([
      this.siteIssueChanges(from.id, to.id),
      this.pageCheckChanges(from.id, to.id),
      this.pageChanges(from.id, to.id),
    ]);
    const regressions = { high: 0, medium: 0, low: 0 };
    for (const issue of siteIssues)
      if (isImportance(issue.importance)) regressions[issue.importance] += issue.new_count;
    for (const check of pageChecks)
      if (isImportance(check.importance)) regressions[check.importance] += check.regressed;
    return {
      object: "crawl_diff",
      project: to.project,
      from: side(from),
      to: side(to),
      score_change: from.score === null || to.score === null ? null : to.score - from.score,
      pages,
      site_issues: siteIssues,
      page_checks: pageChecks,
      regressions,
      coverage: {
        newly_checked: siteIssues.reduce((sum, issue) => sum + issue.coverage.newly_checked, 0),
        no_longer_checked: siteIssues.reduce((sum, issue) => sum + issue.coverage.no_longer_checked, 0),
      },
    };
  }

  private async siteIssueChanges(from: number, to: number): Promise<SiteIssueChange[]> {
    const [fromIssues, toIssues, added, resolved] = await Promise.all([
      this.diffs.issueCounts(from),
      this.diffs.issueCounts(to),
      this.findingsOnlyIn(to, from),
      this.findingsOnlyIn(from, to),
    ]);
    const checks = [...new Set([...added.keys(), ...resolved.keys()])];
    const changes = checks.map((check): SiteIssueChange => {
      const appeared = added.get(check) ?? unseen();
      const gone = resolved.get(check) ?? unseen();
      const before = fromIssues.find((issue) => issue.check_id === check);
      const after = toIssues.find((issue) => issue.check_id === check);
      return {
        check,
        importance: after?.importance ?? before?.importance ?? "low",
        from_count: before?.count ?? 0,
        to_count: after?.count ?? 0,
        new: appeared.items,
        resolved: gone.items,
        new_count: appeared.changes,
        resolved_count: gone.changes,
        coverage: { newly_checked: appeared.coverage, no_longer_checked: gone.coverage },
      };
    });
    return ordered(changes, (change) => change.new_count);
  }

  /**
   * By check, the findings of crawl `only` that crawl `other` lacks, sorted by the comparison's rule
   * (finding-coverage.ts): a change when `other` reached every URL the finding is about (the first
   * `listedChanges` of them kept), coverage otherwise.
   */
  private async findingsOnlyIn(only: number, other: number): Promise<Map<string, FindingsOnlyIn>> {
    const byCheck = new Map<string, FindingsOnlyIn>();
    for await (const batch of this.diffs.findingsOnlyInBatches(only, other)) {
      const items = batch.map((row) => ({
        check: row.check_id,
        item: JSON.parse(row.item) as Record<string, unknown>,
      }));
      const seen = await this.diffs.seen(
        other,
        items.flatMap(({ item }) => decidingUrls(item)),
      );
      const otherCrawl = {
        reached: (url: string) => seen.reached.has(url),
        knows: (url: string) => seen.known.has(url),
      };
      for (const { check, item } of items) {
        let tally = byCheck.get(check);
        if (!tally) {
          tally = unseen();
          byCheck.set(check, tally);
        }
        if (isChange(item, otherCrawl)) {
          tally.changes++;
          if (tally.items.length < listedChanges)
            tally.items.push(
              withBoundedUrls(item, (fingerprint) => apiFindingUrlsPath(only, check, fingerprint)),
            );
        } else tally.coverage++;
      }
    }
    return byCheck;
  }

  private async pageCheckChanges(from: number, to: number): Promise<PageCheckChange[]> {
    const byCheck = new Map<
      string,
      {
        regressed: number;
        fixed: number;
        regressedPages: PageCheckChange["pages"];
        fixedPages: PageCheckChange["pages"];
      }
    >();
    for await (const batch of this.diffs.comparedPages(from, to)) {
      for (const page of batch) {
        const before = JSON.parse(page.before) as Record<string, string>;
        const after = JSON.parse(page.after) as Record<string, string>;
        for (const check of new Set([...Object.keys(before), ...Object.keys(after)])) {
          const was = before[check] ?? "pass";
          const now = after[check] ?? "pass";
          const change = verdictChange(was, now);
          if (change !== "regressed" && change !== "fixed") continue;
          let tally = byCheck.get(check);
          if (!tally) {
            tally = { regressed: 0, fixed: 0, regressedPages: [], fixedPages: [] };
            byCheck.set(check, tally);
          }
          const list = change === "regressed" ? tally.regressedPages : tally.fixedPages;
          if (list.length < listedChanges) list.push({ url: page.url, from: was, to: now });
          tally[change]++;
        }
      }
    }
    const changes = [...byCheck].map(([check, tally]) => ({
      check,
      importance: pageCheckImportance.get(check) ?? "low",
      regressed: tally.regressed,
      fixed: tally.fixed,
      pages: [...tally.regressedPages, ...tally.fixedPages].slice(0, listedChanges),
    }));
    return ordered(changes, (change) => change.regressed);
  }

  private async pageChanges(from: number, to: number): Promise<CrawlDiff["pages"]> {
    const [added, removed, status, indexability] = await Promise.all([
      this.diffs.pagesOnlyIn(to, from, listedChanges),
      this.diffs.pagesOnlyIn(from, to, listedChanges),
      this.diffs.statusChanges(from, to, listedChanges),
      this.diffs.indexabilityChanges(from, to, listedChanges),
    ]);
    const truncated =
      added.count -
      added.urls.length +
      removed.count -
      removed.urls.length +
      status.count -
      status.rows.length +
      indexability.count -
      indexability.rows.length;
    return {
      added: added.urls,
      removed: removed.urls,
      status_changed: status.rows,
      indexability_changed: indexability.rows,
      truncated,
    };
  }
}

/** The URLs a finding's item concerns: its page (or link target), its group's pages, its linking pages. */
export function itemUrls(item: Record<string, unknown>): string[] {
  const urls = typeof item.url === "string" ? [item.url] : [];
  for (const key of ["pages", "sources"]) {
    const list = item[key];
    if (Array.isArray(list)) for (const url of list) if (typeof url === "string") urls.push(url);
  }
  return urls;
}

function isImportance(value: string): value is Importance {
  return (importances as readonly string[]).includes(value);
}

/** Importance high → low, then the count descending, then the check id. */
function ordered<Change extends { check: string; importance: string }>(
  changes: Change[],
  count: (change: Change) => number,
): Change[] {
  const rank = (importance: string) => {
    const index = importances.indexOf(importance as Importance);
    return index === -1 ? importances.length : index;
  };
  return changes.sort(
    (a, b) =>
      rank(a.importance) - rank(b.importance) ||
      count(b) - count(a) ||
      (a.check < b.check ? -1 : a.check > b.check ? 1 : 0),
  );
}

function side(crawl: CrawlRow): CrawlDiffSide {
  return {
    id: crawl.id,
    finished_at: crawl.finished_at,
    score: crawl.score,
    pages: crawlObject(crawl).pages,
  };
}

/** No earlier crawl to compare with: `from` null and every list empty. */
function emptyDiff(to: CrawlRow): CrawlDiff {
  return {
    object: "crawl_diff",
    project: to.project,
    from: null,
    to: side(to),
    score_change: null,
    pages: { added: [], removed: [], status_changed: [], indexability_changed: [], truncated: 0 },
    site_issues: [],
    page_checks: [],
    regressions: { high: 0, medium: 0, low: 0 },
    coverage: noCoverage(),
  };
}

/** The diff with each list cut to its first `entries` (the webhook's copy); the counts stay complete. */
export function shortenedDiff(diff: CrawlDiff, entries: number): CrawlDiff {
  const cut = <Entry>(list: Entry[]) => list.slice(0, entries);
  const { added, removed, status_changed, indexability_changed } = diff.pages;
  const left = [added, removed, status_changed, indexability_changed].reduce(
    (total, list) => total + Math.max(0, list.length - entries),
    0,
  );
  return {
    ...diff,
    pages: {
      ...diff.pages,
      truncated: diff.pages.truncated + left,
      added: cut(added),
      removed: cut(removed),
      status_changed: cut(status_changed),
      indexability_changed: cut(indexability_changed),
    },
    site_issues: diff.site_issues.slice(0, entries).map((issue) => ({
      ...issue,
      new: issue.new.slice(0, entries),
      resolved: issue.resolved.slice(0, entries),
    })),
    page_checks: diff.page_checks
      .slice(0, entries)
      .map((check) => ({ ...check, pages: check.pages.slice(0, entries) })),
  };
}

/**
 * Whether the crawl regressed against the previous one (the `crawl.regressed` webhook): a new or regressed
 * finding of high importance, or a score drop of at least `scoreDrop` points. Never without a previous crawl.
 */
export function isSiteRegression(diff: CrawlDiff, scoreDrop: number): boolean {
  if (diff.from === null) return false;
  if (diff.regressions.high > 0) return true;
  return diff.score_change !== null && -diff.score_change >= scoreDrop;
}
