/**
 * The rules of crawls, shared by the API and the pages: the fields a crawl takes and their limits (a 422 naming
 * the field for anything else; a list of URLs in `url-list.ts`, extraction rules in `extraction-fields.ts`), at most PAGEGRADE_CRAWLS_PER_USER queued or running per user (CrawlLimitReached,
 * a 429), starting one (the `crawl` job, keyed by the crawl), cancelling (409 when it has finished: CrawlFinished),
 * deleting (cancels first; the reports stay).
 */

import type { Analyzer } from "../analysis/analyse.js";
import { InvalidUrl, normaliseSubmittedUrl, projectOf } from "../analysis/submitted-url.js";
import type { CrawlSettings } from "../config.js";
import { Conflict, DomainError, ValidationFailed } from "../errors.js";
import type { JobQueue } from "../jobs/job-queue.js";
import { type Owner, scopeOf, type WorkspaceScope, workspaceOf } from "../store/owned-rows.js";
import { type ReportSchedule, reportSchedules } from "../store/schema.js";
import type { SecretBox } from "../store/secret-box.js";
import { timestamp } from "../timestamps.js";
import { type AnalysisMode, analysisModes } from "../vocabulary.js";
import type { CrawlChangeSummaries } from "./crawl-change-summary.js";
import type { CrawlComparison } from "./crawl-diff.js";
import { crawlHeadersOf, storedCrawlHeaders } from "./crawl-headers.js";
import type { CrawlListings, CrawlPageQuery } from "./crawl-listing-store.js";
import type { CrawlListQuery, CrawlRow, CrawlStore, CrawlSummaryRow } from "./crawl-store.js";
import { type CrawlPayload, crawlJob, crawlJobAttempts } from "./crawler.js";
import { extractionRules } from "./extraction-fields.js";
import { urlList } from "./url-list.js";

export interface CrawlInput {
  url?: string;
  /** List mode: the only URLs analysed (instead of `url`). */
  urls?: string | string[];
  /** Extraction rules: a JSON array, or its text. */
  extract?: unknown;
  max_pages?: number;
  max_depth?: number;
  sitemaps?: number;
  include?: string | string[];
  exclude?: string | string[];
  privacy?: number;
  mode?: string;
  schedule?: string;
  /** Request headers for the crawl's own hosts: an object, or `Name: value` lines (see crawl-headers.ts). */
  headers?: unknown;
}

/** The user has as many crawls queued or running as allowed (`limit`, PAGEGRADE_CRAWLS_PER_USER). */
export class CrawlLimitReached extends DomainError {
  override readonly name = "CrawlLimitReached";
  readonly code = "crawl_limit_reached";
  readonly status = 429;

  constructor(readonly limit: number) {
    super(`You have ${limit} crawls queued or running; wait for one to finish or cancel it.`);
  }
}

/** The crawl has already finished (cancelling it is a 409). */
export class CrawlFinished extends Conflict {
  override readonly name = "CrawlFinished";
  readonly code = "crawl_finished";
}

const maxPatterns = 20;
const maxPatternLength = 200;

export class CrawlService {
  constructor(
    private readonly crawls: CrawlStore,
    private readonly listings: CrawlListings,
    private readonly jobs: JobQueue,
    private readonly analyzer: Analyzer,
    private readonly settings: CrawlSettings,
    private readonly secrets: SecretBox,
    /** Comparing two complete crawls (the diff). */
    readonly comparison: CrawlComparison,
    /** What changed in a complete crawl against the one before it, as the project dashboard shows it. */
    readonly changes: CrawlChangeSummaries,
  ) {}

  list(owner: Owner, query: CrawlListQuery) {
    return this.crawls.list(owner, query);
  }

  show(owner: Owner, id: number): Promise<CrawlRow | undefined> {
    return this.crawls.find(owner, id);
  }

  /** The crawl without its URL list (lists, event streams), or undefined. */
  showSummary(owner: Owner, id: number): Promise<CrawlSummaryRow | undefined> {
    return this.crawls.findSummary(owner, id);
  }

  /**
   * Starts a crawl. `charge` (the caller's quota of crawl starts) is called once the input is valid and the user
   * may have one more crawl, just before it starts: a refused crawl costs no start.
   */
  async create(owner: Owner, input: CrawlInput, charge?: () => Promise<void>): Promise<CrawlRow> {
    const { userId } = scopeOf(owner);
    const fields = crawlFields(input, {
      maxPages: this.settings.maxPages,
      renderingAvailable: this.analyzer.renderingAvailable(),
      secrets: this.secrets,
    });
    if ((await this.crawls.activeCount(userId)) >= this.settings.perUser) {
      throw new CrawlLimitReached(this.settings.perUser);
    }
    await charge?.();
    return this.start(scopeOf(owner), fields);
  }

  /**
   * A scheduled crawl's next run: a new crawl with the same settings. Undefined when the user already has as
   * many crawls queued or running as allowed (the schedule tries again later).
   */
  async runAgain(previous: CrawlRow): Promise<CrawlRow | undefined> {
    if ((await this.crawls.activeCount(previous.user_id)) >= this.settings.perUser) return undefined;
    const { url, urls, extract, project, max_pages, max_depth, sitemaps, include, exclude } = previous;
    const { mode, privacy, schedule } = previous;
    const fields = {
      // Sealed as they were: the next run sends the same headers.
      headers: previous.headers,
      header_names: previous.header_names,
      url,
      urls,
      extract,
      project,
      max_pages,
      max_depth,
      sitemaps,
      include,
      exclude,
      mode,
      privacy,
      // The next audit is shared as this one was, with the same password.
      password_hash: previous.password_hash,
      schedule,
    };
    // In the previous run's workspace: a team's schedule runs for the team, whoever of it made it.
    return this.start(workspaceOf(previous), fields);
  }

  /**
   * Stores the crawl and enqueues its parts: one `crawl` job per page fetched at once
   * (PAGEGRADE_CRAWL_HOST_CONCURRENCY), keyed `crawl:<id>:<part>`, so the parts spread over the workers. Nothing
   * stays behind if the queue refuses.
   */
  private async start(
    owner: WorkspaceScope,
    fields: ReturnType<typeof crawlFields> & { password_hash?: string | null },
  ): Promise<CrawlRow> {
    const { userId, teamId } = owner;
    const now = timestamp();
    const parts = Math.max(1, this.settings.hostConcurrency);
    const crawl = await this.crawls.insert({
      ...fields,
      parts,
      user_id: userId,
      team_id: teamId,
      created_at: now,
      updated_at: now,
    });
    try {
      for (let part = 0; part < parts; part++) {
        await this.jobs.enqueue(crawlJob, { userId, crawlId: crawl.id, part } satisfies CrawlPayload, {
          key: partKey(crawl.id, part),
          attempts: crawlJobAttempts,
          userId,
        });
      }
    } catch (error) {
      await this.cancelJobs(crawl);
      await this.crawls.delete(owner, crawl.id);
      throw error;
    }
    return crawl;
  }

  /** Asks the crawl to stop; throws CrawlFinished when it already has; undefined when there is no such crawl. */
  async cancel(owner: Owner, id: number): Promise<CrawlRow | undefined> {
    const existing = await this.crawls.find(owner, id);
    if (!existing) return undefined;
    const now = timestamp();
    if (existing.status === "queued") {
      // Not started: it stops here, and its jobs find it finished.
      const stopped = await this.crawls.cancelQueued(id, now);
      if (stopped) {
        await this.cancelJobs(stopped);
        return stopped;
      }
    }
    const asked = await this.crawls.requestCancel(owner, id, now);
    if (!asked) throw new CrawlFinished("The crawl has already finished.");
    return asked;
  }

  async delete(owner: Owner, id: number): Promise<boolean> {
    const existing = await this.crawls.find(owner, id);
    if (!existing) return false;
    if (existing.status === "queued" || existing.status === "running") {
      await this.crawls.requestCancel(owner, id, timestamp());
      await this.cancelJobs(existing);
    }
    return this.crawls.delete(owner, id);
  }

  private async cancelJobs(crawl: CrawlRow): Promise<void> {
    for (let part = 0; part < crawl.parts; part++) await this.jobs.cancel(crawlJob, partKey(crawl.id, part));
  }

  pages(crawlId: number, page: { limit: number; offset: number }) {
    return this.listings.pages(crawlId, page);
  }

  pageTable(crawlId: number, query: CrawlPageQuery) {
    return this.listings.pageTable(crawlId, query);
  }

  pageCount(crawlId: number) {
    return this.listings.pageCount(crawlId);
  }

  overview(crawlId: number) {
    return this.listings.overview(crawlId);
  }

  issues(crawlId: number) {
    return this.listings.issues(crawlId);
  }

  /** The workspace's last 20 complete crawls of the project, oldest first (a project's trend; its last is the latest). */
  async trend(owner: Owner, project: string): Promise<CrawlRow[]> {
    return (await this.listings.completeCrawls(owner, project, 20)).reverse();
  }
}

/** The stored fields of a crawl from what was asked, each checked (a 422 naming the field otherwise). */
export function crawlFields(
  input: CrawlInput,
  limits: { maxPages: number; renderingAvailable: boolean; secrets?: SecretBox | null },
) {
  if (input.url !== undefined && input.urls !== undefined) {
    throw ValidationFailed.of("urls", "Give either url (a start page) or urls (a list), not both.");
  }
  if (input.url === undefined && input.urls === undefined) {
    throw ValidationFailed.of("url", "The url field is required (or urls, a list of URLs).");
  }
  const maxPages = input.max_pages ?? Math.min(500, limits.maxPages);
  if (!Number.isInteger(maxPages) || maxPages < 1 || maxPages > limits.maxPages) {
    throw ValidationFailed.of("max_pages", `The max pages field must be between 1 and ${limits.maxPages}.`);
  }
  // A list without max_pages may be as long as the server allows.
  const list =
    input.urls === undefined
      ? null
      : urlList(input.urls, input.max_pages === undefined ? limits.maxPages : maxPages);
  let url: URL;
  try {
    url = normaliseSubmittedUrl(list ? (list.urls[0] as string) : (input.url as string));
  } catch (error) {
    if (error instanceof InvalidUrl)
      throw ValidationFailed.of("url", error.message.replace(/^The url /, "The url field "));
    throw error;
  }
  const maxDepth = input.max_depth ?? 10;
  if (!Number.isInteger(maxDepth) || maxDepth < 0 || maxDepth > 50) {
    throw ValidationFailed.of("max_depth", "The max depth field must be between 0 and 50.");
  }
  const sitemaps = input.sitemaps ?? 1;
  if (sitemaps !== 0 && sitemaps !== 1)
    throw ValidationFailed.of("sitemaps", "The sitemaps field must be 0 or 1.");
  const privacy = input.privacy ?? 1;
  if (![0, 1].includes(privacy)) {
    throw ValidationFailed.of(
      "privacy",
      "The privacy field must be 0 or 1 (a crawl's reports have no password).",
    );
  }
  const mode = (input.mode ?? "raw") as AnalysisMode;
  if (!analysisModes.includes(mode))
    throw ValidationFailed.of("mode", "The mode field must be raw or rendered.");
  if (mode === "rendered" && !limits.renderingAvailable) {
    throw ValidationFailed.of(
      "mode",
      "The mode field cannot be rendered: this server has no Chromium (set PAGEGRADE_CHROMIUM_PATH).",
    );
  }
  const schedule = (input.schedule ?? "off") as ReportSchedule;
  if (!reportSchedules.includes(schedule)) {
    throw ValidationFailed.of("schedule", "The schedule field must be off, daily or weekly.");
  }
  const include = patterns(input.include, "include");
  const exclude = patterns(input.exclude, "exclude");
  const headers = storedCrawlHeaders(crawlHeadersOf(input.headers), limits.secrets ?? null);
  const extract = extractionRules(input.extract);
  return {
    ...headers,
    url: url.href,
    urls: list ? JSON.stringify(list.urls) : null,
    extract: JSON.stringify(extract),
    project: projectOf(url),
    // A list's crawl fetches its URLs and nothing else: its budget is the list.
    max_pages: list && input.max_pages === undefined ? list.urls.length : maxPages,
    max_depth: maxDepth,
    // No sitemaps in list mode: only the listed URLs are analysed.
    sitemaps: list ? 0 : sitemaps,
    include: JSON.stringify(include),
    exclude: JSON.stringify(exclude),
    mode,
    privacy,
    schedule,
  };
}

function partKey(crawlId: number, part: number): string {
  return `crawl:${crawlId}:${part}`;
}

/** Include or exclude patterns: a list, or one comma-separated string; at most 20 of at most 200 characters. */
function patterns(raw: string | string[] | undefined, field: "include" | "exclude"): string[] {
  if (raw === undefined) return [];
  const list = (Array.isArray(raw) ? raw : raw.split(",")).map((pattern) => pattern.trim()).filter(Boolean);
  if (list.length > maxPatterns)
    throw ValidationFailed.of(field, `The ${field} field may hold at most ${maxPatterns} patterns.`);
  for (const pattern of list) {
    if (pattern.length > maxPatternLength) {
      throw ValidationFailed.of(
        field,
        `Each ${field} pattern may be at most ${maxPatternLength} characters.`,
      );
    }
    if (!pattern.startsWith("/") && !pattern.startsWith("*")) {
      throw ValidationFailed.of(
        field,
        `Each ${field} pattern must start with / or * (a URL path pattern), got "${pattern}".`,
      );
    }
  }
  return list;
}
