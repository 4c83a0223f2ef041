/**
 * A crawl's audit, what its owner hands a client: who may see it (the crawl's privacy and password, changed by
 * the report's rules in privacy-change.ts) and what it holds, gathered once for the audit page and its PDF: the
 * site's score over the project's complete crawls up to this one, the fix-first ranking and what changed
 * against the complete crawl before it (the comparison's summary).
 */

import { privacyChanges } from "../reports/privacy-change.js";
import { type Owner, workspaceOf } from "../store/owned-rows.js";
import type { CheckPageRow } from "./check-rollup-store.js";
import type { CrawlAuditStore } from "./crawl-audit-store.js";
import type { CrawlChangeSummary } from "./crawl-change-summary.js";
import type { CrawlFindings } from "./crawl-findings.js";
import type { CrawlService } from "./crawl-service.js";
import type { CrawlIssueRow, CrawlRow } from "./crawl-store.js";
import type { Fix } from "./fix-first.js";

export interface AuditContents {
  crawl: CrawlRow;
  /** Oldest first, ending with this crawl when it is complete. */
  trend: CrawlRow[];
  fixes: Fix[];
  /** The crawl's site issues (each with the first of its findings). */
  issues: CrawlIssueRow[];
  /** Null when there is no earlier complete crawl, or this one is not complete. */
  changes: CrawlChangeSummary | null;
}

/** One issue's pages: a page check's pages (failures first) and how many, or a site issue with its findings. */
export type IssuePages =
  | { kind: "page_check"; check: string; rows: CheckPageRow[]; total: number }
  | { kind: "site_issue"; issue: CrawlIssueRow };

export class CrawlAudits {
  constructor(
    private readonly store: CrawlAuditStore,
    private readonly crawls: CrawlService,
    private readonly findings: CrawlFindings,
  ) {}

  /** The crawl whoever owns it, for the password gate. */
  find(id: number): Promise<CrawlRow | undefined> {
    return this.store.find(id);
  }

  /** Sets who may see the audit (`privacy`, `password`); undefined when the owner has no such crawl. */
  async share(
    owner: Owner,
    id: number,
    input: { privacy?: number; password?: string },
  ): Promise<CrawlRow | undefined> {
    const existing = await this.crawls.show(owner, id);
    if (!existing) return undefined;
    const changes = await privacyChanges(existing, input);
    if (Object.keys(changes).length === 0) return existing;
    return this.store.update(owner, id, changes);
  }

  /**
   * A page of the fix's pages: a page check's (failures first), or its site issue's findings (the caller pages
   * the findings the issue holds); undefined when the crawl has no such site issue.
   */
  async issuePages(
    crawlId: number,
    fix: Fix,
    page: { limit: number; offset: number },
    issues?: CrawlIssueRow[],
  ): Promise<IssuePages | undefined> {
    if (fix.kind === "page_check") {
      const { rows, total } = await this.findings.checkPages(crawlId, fix.check, page, {
        failuresFirst: true,
      });
      return { kind: "page_check", check: fix.check, rows, total };
    }
    const issue = (issues ?? (await this.crawls.issues(crawlId))).find((row) => row.check_id === fix.check);
    return issue ? { kind: "site_issue", issue } : undefined;
  }

  async contents(crawl: CrawlRow): Promise<AuditContents> {
    const complete = crawl.status === "complete";
    const [trend, fixes, issues, changes] = await Promise.all([
      complete ? this.crawls.trend(workspaceOf(crawl), crawl.project) : Promise.resolve([]),
      this.findings.fixFirst(crawl.id),
      this.crawls.issues(crawl.id),
      complete ? this.crawls.changes.latest(crawl) : Promise.resolve(null),
    ]);
    const upToThis = trend.filter((row) => (row.finished_at ?? "") <= (crawl.finished_at ?? ""));
    return { crawl, trend: upToThis, fixes, issues, changes };
  }
}
