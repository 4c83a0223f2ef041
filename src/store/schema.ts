/**
 * The tables as Kysely sees them. Timestamps are ISO-8601 UTC text with microseconds
 * ("2026-11-20T10:15:30.000000Z") in both dialects: they sort as text, and the API returns them as they are.
 * JSON documents (a report's summary and categories) are stored as text and sent back verbatim; check results
 * are stored once per analysis, brotli-packed (analysis-document.ts), and sent back as the bytes they unpack to.
 */
import type { Generated } from "kysely";
import type { AnalysisMode, AnalysisTrigger } from "../vocabulary.js";

export interface UsersTable {
  id: Generated<number>;
  email: string;
  /** Argon2id/scrypt hash for web log-in; null for accounts made only for API use. */
  password_hash: string | null;
  created_at: string;
  updated_at: string;
  /** Changes with every insert, update or delete of the user's reports (database triggers, migration 010). */
  reports_version: Generated<number>;
  /** When an operator disabled the account (`pagegrade user disable`): its keys and sessions stop working. */
  disabled_at: string | null;
}

export interface ApiKeysTable {
  id: Generated<number>;
  user_id: number;
  /** SHA-256 of the whole key, hex. The key itself is never stored. */
  digest: string;
  /** The visible start of the key ("pgk_" and a few characters) and its last 4, for display. */
  prefix: string;
  last_four: string;
  created_at: string;
  revoked_at: string | null;
}

export type ReportStatus = "queued" | "running" | "complete" | "failed";
export const reportSchedules = ["off", "daily", "weekly"] as const;
export type ReportSchedule = (typeof reportSchedules)[number];

export interface ReportsTable {
  id: Generated<number>;
  user_id: number;
  /** The team whose workspace holds the row; null for the user's own (migration 031). */
  team_id: number | null;
  url: string;
  final_url: string;
  project: string;
  /**
   * This and the columns below describe the latest complete analysis: null until the first one completes. Its
   * summary, category scores and results are read from that analysis (`analysis_id`; migrations 022 and 041).
   */
  result: string | null;
  score: number | null;
  privacy: number;
  password_hash: string | null;
  generated_at: string | null;
  created_at: string;
  updated_at: string;
  /** The state of the report's latest analysis job. */
  status: Generated<ReportStatus>;
  /** Analysis jobs queued or running for the report (each ends by storing its analysis). */
  pending_analyses: Generated<number>;
  /** Why the latest analysis failed (a stable reason code and its message); null unless status is failed. */
  error_reason: string | null;
  error_message: string | null;
  /** The mode the next analysis uses. */
  mode: Generated<AnalysisMode>;
  schedule: Generated<ReportSchedule>;
  /** When the next scheduled analysis is due; null when the report has no schedule. */
  next_run_at: string | null;
  /** The analysis the report shows (its latest complete one); null for a report without history. */
  analysis_id: number | null;
  /** How many analyses the report has stored. */
  analyses: Generated<number>;
  /** The shown analysis's score minus the previous complete analysis's; null when there was none. */
  score_change: number | null;
}

/**
 * One analysis of a report, complete or failed: the history. The report row carries its latest complete
 * analysis's columns but for the check results, which are stored here only (migration 022) and read through the
 * report's `analysis_id`. `results` is brotli-compressed JSON (analysis-document.ts).
 */
export interface AnalysesTable {
  id: Generated<number>;
  report_id: number;
  user_id: number;
  status: "complete" | "failed";
  trigger: AnalysisTrigger;
  mode: AnalysisMode;
  url: string;
  final_url: string | null;
  result: string | null;
  score: number | null;
  summary: string | null;
  categories: string | null;
  results: Buffer | null;
  /** A failed analysis's stable reason code (part 1's reasons) and its sanitised message. */
  error_reason: string | null;
  error_message: string | null;
  generated_at: string;
  /** The request (analysis job) that made it: a job run twice finds its analysis already stored. */
  request_id: string | null;
  /** A rendered analysis's viewport screenshot and its media type ("image/webp"); null otherwise. */
  screenshot: Buffer | null;
  screenshot_type: string | null;
}

export interface RateLimitsTable {
  /** What is counted: "requests:<key id>", "auth-failures:<address>", … */
  bucket: string;
  /** Start of the fixed window, in whole seconds since the epoch. */
  window_start: number;
  count: number;
}

export interface SessionsTable {
  /** SHA-256 of the session token; the token itself lives only in the browser's cookie. */
  digest: string;
  user_id: number;
  /** A one-time message for the next page (a new API key shown once, a confirmation). */
  flash: string | null;
  created_at: string;
  /** Seconds since the epoch. */
  expires_at: number;
}

export interface SecretsTable {
  name: string;
  value: string;
}

export type JobState = "waiting" | "running" | "completed" | "failed" | "cancelled";

export interface JobsTable {
  id: Generated<number>;
  name: string;
  /** JSON. */
  payload: string;
  /** Deduplication key; unique among waiting and running jobs. */
  key: string | null;
  state: JobState;
  /** Epoch milliseconds: a waiting job runs once this has passed. */
  run_at: number;
  attempts_made: Generated<number>;
  max_attempts: number;
  backoff_ms: number;
  backoff_max_ms: number;
  /** The process running it, and until when its claim holds (epoch ms); another may take it over after that. */
  owner: string | null;
  locked_until: number | null;
  /** 1 once cancel() asked a running job to stop. */
  cancel_requested: Generated<number>;
  last_error: string | null;
  created_at: string;
  finished_at: string | null;
  /** The user the job works for, whose turn it takes in the fair claim; null for the service's own jobs. */
  user_id: number | null;
}

/** When the embedded queue last claimed a job of each user (0 stands for the service's own jobs). */
export interface JobUsersTable {
  user_id: number;
  /** Epoch milliseconds. */
  served_at: number;
}

export interface JobSchedulesTable {
  id: string;
  name: string;
  payload: string;
  every_ms: number;
  /** Epoch milliseconds; whoever moves it on (compare-and-set) enqueues the period's job. */
  next_run_at: number;
}

export interface WebhooksTable {
  id: Generated<number>;
  user_id: number;
  /** The team whose workspace holds the row; null for the user's own (migration 031). */
  team_id: number | null;
  url: string;
  /** Subscribed events, comma-separated. */
  events: string;
  /** 1 or 0 (a 410 Gone from the receiver sets 0). */
  enabled: number;
  /** The signing secret, sealed (secret-box.ts). */
  secret: string;
  /** "whsec_…abcd": what may be shown after creation. */
  secret_hint: string;
  created_at: string;
  updated_at: string;
}

export type DeliveryStatus = "pending" | "succeeded" | "failed";

export interface WebhookDeliveriesTable {
  id: Generated<number>;
  webhook_id: number;
  user_id: number;
  event: string;
  /** What was announced ("analysis:118:report.completed"); unique per webhook. */
  event_key: string;
  /** The JSON request body, the same on every attempt. */
  body: string;
  status: DeliveryStatus;
  attempts: Generated<number>;
  last_status_code: number | null;
  last_error: string | null;
  next_attempt_at: string | null;
  created_at: string;
  delivered_at: string | null;
}

/** A mail's delivery state (migration 030): `sending` while an attempt is under way. */
export type MailStatus = "pending" | "sending" | "sent" | "failed";

/** The mail outbox (migration 030, src/mail/mail-store.ts). */
export interface MailMessagesTable {
  id: Generated<number>;
  purpose: string;
  user_id: number | null;
  recipient: string;
  subject: string;
  text_body: string;
  html_body: string;
  /** The Message-ID header, the same on every attempt, so a mail sent again can be recognised as the same. */
  message_id: string;
  status: MailStatus;
  attempts: Generated<number>;
  last_error: string | null;
  next_attempt_at: string | null;
  created_at: string;
  sent_at: string | null;
  /** Unique when set (migration 034): one row per what the mail is about (a crawl and a recipient). */
  dedupe_key: Generated<string | null>;
  /** Extra headers as a JSON object (`List-Unsubscribe`, …); null for none (migration 034). */
  headers: Generated<string | null>;
}

/** A notification e-mail's trigger (migration 034). */
export type NotificationTrigger = "regressed" | "completed" | "never";

/** A project's crawl notification settings (migration 034, src/notifications/). */
export interface NotificationSettingsTable {
  id: Generated<number>;
  user_id: number;
  team_id: Generated<number | null>;
  project: string;
  email_on: NotificationTrigger;
  /** A JSON array of addresses; null: the owner's. */
  recipients: string | null;
  created_at: string;
  updated_at: string;
}

/** An address unsubscribed from one project's notifications (migration 034). */
export interface NotificationUnsubscribesTable {
  id: Generated<number>;
  user_id: number;
  team_id: Generated<number | null>;
  project: string;
  recipient: string;
  created_at: string;
}

/** A password-reset link (migration 030): only the SHA-256 digest of its token. */
export interface PasswordResetsTable {
  digest: string;
  user_id: number;
  created_at: string;
  /** Seconds since the epoch. */
  expires_at: number;
  used_at: string | null;
}

export type CrawlStatus = "queued" | "running" | "complete" | "cancelled" | "failed";
export type CrawlPageState = "queued" | "fetching" | "done" | "failed" | "excluded";

export interface CrawlsTable {
  id: Generated<number>;
  user_id: number;
  /** The team whose workspace holds the row; null for the user's own (migration 031). */
  team_id: number | null;
  url: string;
  project: string;
  status: CrawlStatus;
  max_pages: number;
  max_depth: number;
  sitemaps: number;
  /** JSON arrays of URL path patterns. */
  include: string;
  exclude: string;
  mode: AnalysisMode;
  /** Of its audit page and PDF, and of the reports it creates (a password crawl's reports are private). */
  privacy: number;
  /** The audit's password (Argon2id), privacy 2 only (migration 032). */
  password_hash: Generated<string | null>;
  schedule: ReportSchedule;
  discovered: Generated<number>;
  analysed: Generated<number>;
  failed: Generated<number>;
  excluded: Generated<number>;
  /** URLs come upon but left out at the crawl's limits (`excluded: limit`; migration 029). */
  not_reached: Generated<number>;
  score: number | null;
  result: string | null;
  issues_high: Generated<number>;
  issues_medium: Generated<number>;
  issues_low: Generated<number>;
  cancel_requested: Generated<number>;
  /** robots.txt as fetched at the start; null when the site has none. */
  robots_txt: string | null;
  /** 1 once the start URL and the sitemaps are in the frontier. */
  seeded: Generated<number>;
  started_at: string | null;
  finished_at: string | null;
  /** When a scheduled crawl runs again (as a new crawl); null when not scheduled or already run again. */
  next_run_at: Generated<string | null>;
  /** How many `crawl` jobs (parts) share the crawl, each fetching one page at a time. */
  parts: Generated<number>;
  /** Page fetches taken from `max_pages` so far (claimed pages, given back when not fetched after all). */
  reserved: Generated<number>;
  /** When the next request to the site may start, in milliseconds since the epoch (politeness across parts). */
  next_request_ms: Generated<number>;
  /** Held by the part reading robots.txt and the sitemaps; null or past when no part does. */
  seed_lease_until: Generated<string | null>;
  /** Held by the part that judges the finished crawl; null or past when no part does. */
  finish_lease_until: Generated<string | null>;
  /** New URLs its pages asked to add to the frontier, and how many of them did not fit (see crawl-bounds.ts). */
  urls_offered: Generated<number>;
  urls_dropped: Generated<number>;
  /** Links its pages asked to record, and how many of them were not (a page's or the crawl's bound). */
  links_offered: Generated<number>;
  links_dropped: Generated<number>;
  /**
   * When its end was announced (webhooks, notification mails; migration 039); null while running, and for a
   * `complete` or `failed` crawl whose process died before announcing it (the maintenance sweep then does).
   */
  announced_at: Generated<string | null>;
  /** Why a failed crawl failed: `{"reason", "message"}` as JSON; null otherwise. */
  error: Generated<string | null>;
  /** The request headers sent to the crawl's own hosts, sealed (crawls/crawl-headers.ts); null for none. */
  headers: Generated<string | null>;
  /** Their names, as a JSON array: all that is ever shown of them. */
  header_names: Generated<string>;
  /** List mode: the only URLs the crawl analyses (a JSON array); null when it follows links. */
  urls: Generated<string | null>;
  /** Extraction rules, a JSON array (`[]` for none). */
  extract: Generated<string>;
  /** 0 for a crawl analysed before page checks were recorded (migration 023): it compares on site findings only. */
  checks_recorded: Generated<number>;
  created_at: string;
  updated_at: string;
}

export interface CrawlPagesTable {
  id: Generated<number>;
  crawl_id: number;
  url: string;
  depth: number | null;
  state: CrawlPageState;
  status_code: number | null;
  content_type: string | null;
  in_sitemap: Generated<number>;
  disallowed: Generated<number>;
  indexable: Generated<number>;
  noindex: Generated<number>;
  canonical: string | null;
  title: string | null;
  meta_description: string | null;
  redirect_to: string | null;
  /** The visible text's SHA-256 and minhashes, packed (store/stored-fingerprint.ts; migration 026). */
  text_fingerprint: Buffer | null;
  hreflang: string | null;
  outlinks: Generated<number>;
  report_id: number | null;
  score: number | null;
  result: string | null;
  excluded: null | "robots" | "pattern" | "limit" | "not-html";
  error: string | null;
  /** The extraction rules' values, one JSON array per rule in the crawl's order; null when none were read. */
  extracted: Generated<string | null>;
  attempts: Generated<number>;
  /** The part fetching it (while `fetching`), and until when its claim holds. */
  claimed_by: Generated<number | null>;
  lease_until: Generated<string | null>;
}

/**
 * How many distinct other pages of the crawl link to a page, as the crawl's judgement counted them (migration
 * 026): a row of its own, so counting does not write every page's wide row again; a page without one has none.
 */
export interface CrawlPageInlinksTable {
  page_id: number;
  inlinks: number;
}

/**
 * A crawl's internal link: its source by the id of the source's `crawl_pages` row (migration 042; the URL is the
 * page's), its target by URL (a target need not be a page the crawl stored).
 */
export interface CrawlLinksTable {
  crawl_id: number;
  from_page: number;
  to_url: string;
  nofollow: number;
  /** The first non-empty text of the page's anchors to the target (migration 021); null before it. */
  anchor: string | null;
}

export interface CrawlIssuesTable {
  crawl_id: number;
  position: number;
  check_id: string;
  category: string;
  importance: string;
  title: string;
  message: string;
  count: number;
  /** JSON array. */
  items: string;
  truncated: number;
}

/**
 * A page check that failed or warned on an analysed page of a crawl (migration 021), as the crawl judged it: what
 * the roll-up counts and comparing two crawls reads. Its message and evidence are on the analysis the crawl made
 * of the page (request id `crawl:<crawl>:<page>`; migration 023).
 */
export interface CrawlPageChecksTable {
  crawl_id: number;
  page_id: number;
  /** The page's URL path pattern: "/", "/about", "/blog/*". */
  template: string;
  /**
   * The page's failed and warned checks, one row per page (migration 036): `,<code><f|w>,…,` where a code is a row
   * of `page_check_names` (migration 027) and f fail, w warn (crawls/page-check-code-store.ts).
   */
  checks: string;
}

/** The page checks' names by their small integer in `crawl_page_checks.checks` (migrations 027, 036). */
export interface PageCheckNamesTable {
  id: Generated<number>;
  name: string;
}

/**
 * What changed in a complete crawl (`to_crawl_id`) against the previous complete crawl of its project
 * (`from_crawl_id`), as the project dashboard shows it; stored when the crawl completes (migration 024).
 */
export interface CrawlChangeSummariesTable {
  to_crawl_id: number;
  from_crawl_id: number;
  new_findings: number;
  resolved_findings: number;
  pages_regressed: number;
  pages_fixed: number;
  score_before: number | null;
  score_after: number | null;
  /** JSON array of { check, importance, item }. */
  first_new_findings: string;
  created_at: string;
}

/** Every site finding of a crawl with its fingerprint (the issue's `items` list only the first 100). */
export interface CrawlFindingsTable {
  crawl_id: number;
  check_id: string;
  position: number;
  fingerprint: string;
  /** The finding's item as JSON. */
  item: string;
}

export const teamRoles = ["owner", "editor", "viewer"] as const;
export type TeamRole = (typeof teamRoles)[number];

export interface TeamsTable {
  id: Generated<number>;
  name: string;
  created_at: string;
  updated_at: string;
  /** Raised by the database on every change to the team's reports and analyses (migration 038). */
  reports_version: Generated<number>;
}

export interface TeamMembersTable {
  team_id: number;
  user_id: number;
  role: TeamRole;
  joined_at: string;
}

export interface TeamInvitationsTable {
  id: Generated<number>;
  team_id: number;
  /** Lower-cased. */
  email: string;
  role: TeamRole;
  /** SHA-256 of the one-time token, hex. The token itself is never stored. */
  digest: string;
  invited_by: number | null;
  created_at: string;
  /** Seven days after created_at. */
  expires_at: string;
  accepted_at: string | null;
  accepted_by: number | null;
  revoked_at: string | null;
}

export interface TeamActivityTable {
  id: Generated<number>;
  team_id: number;
  /** Who did it; null once that user is deleted. */
  user_id: number | null;
  at: string;
  action: string;
  target: string;
}

/** The name and logo shown instead of pagegrade's on a user's or a team's audits and PDFs (migration 032). */
export interface BrandingsTable {
  id: Generated<number>;
  /** Exactly one of the two owners is set. */
  user_id: number | null;
  team_id: number | null;
  brand_name: string | null;
  logo: Buffer | null;
  logo_type: string | null;
  updated_at: string;
}

export interface Database {
  teams: TeamsTable;
  team_members: TeamMembersTable;
  team_invitations: TeamInvitationsTable;
  team_activity: TeamActivityTable;
  crawls: CrawlsTable;
  crawl_findings: CrawlFindingsTable;
  /** A judgement's findings before they replace the crawl's (migration 025). */
  crawl_findings_staged: CrawlFindingsTable & { judgement: string };
  crawl_pages: CrawlPagesTable;
  crawl_page_inlinks: CrawlPageInlinksTable;
  crawl_links: CrawlLinksTable;
  crawl_issues: CrawlIssuesTable;
  crawl_page_checks: CrawlPageChecksTable;
  page_check_names: PageCheckNamesTable;
  crawl_change_summaries: CrawlChangeSummariesTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  jobs: JobsTable;
  job_users: JobUsersTable;
  job_schedules: JobSchedulesTable;
  sessions: SessionsTable;
  mail_messages: MailMessagesTable;
  brandings: BrandingsTable;
  notification_settings: NotificationSettingsTable;
  notification_unsubscribes: NotificationUnsubscribesTable;
  password_resets: PasswordResetsTable;
  secrets: SecretsTable;
  users: UsersTable;
  api_keys: ApiKeysTable;
  reports: ReportsTable;
  analyses: AnalysesTable;
  rate_limits: RateLimitsTable;
}
