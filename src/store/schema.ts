/**
 * The tables as Kysely sees them. Timestamps are ISO-8601 UTC text with microseconds
 * ("2026-11-20T10:15:30.000000Z") in both dialects: they sort as text, and the API returns them as they are.
 * JSON documents (a report's summary, categories and results) are stored as text and sent back verbatim.
 */
import type { Generated } from "kysely";

export interface UsersTable {
  id: Generated<number>;
  email: string;
  /** Argon2id/scrypt hash for web log-in; null for accounts made only for API use. */
  password_hash: string | null;
  created_at: string;
  updated_at: string;
  /** Changes with every insert, update or delete of the user's reports (database triggers, migration 010). */
  reports_version: Generated<number>;
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

export interface ReportsTable {
  id: Generated<number>;
  user_id: number;
  url: string;
  final_url: string;
  project: string;
  result: string;
  score: number;
  privacy: number;
  password_hash: string | null;
  summary: string;
  categories: string;
  results: string;
  generated_at: string;
  created_at: string;
  updated_at: string;
  /** The analysis the report shows (its latest complete one); null for a report without history. */
  analysis_id: number | null;
  /** How many analyses the report has stored. */
  analyses: Generated<number>;
  /** The shown analysis's score minus the previous complete analysis's; null when there was none. */
  score_change: number | null;
}

/**
 * One analysis of a report, complete or failed. The report row carries a copy of its latest complete analysis;
 * this table is the history. `results` is brotli-compressed JSON (analysis-document.ts).
 */
export interface AnalysesTable {
  id: Generated<number>;
  report_id: number;
  user_id: number;
  status: "complete" | "failed";
  trigger: "create" | "rerun" | "schedule" | "crawl";
  mode: "raw" | "rendered";
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
}

export interface JobSchedulesTable {
  id: string;
  name: string;
  payload: string;
  every_ms: number;
  /** Epoch milliseconds; whoever moves it on (compare-and-set) enqueues the period's job. */
  next_run_at: number;
}

export interface Database {
  jobs: JobsTable;
  job_schedules: JobSchedulesTable;
  sessions: SessionsTable;
  secrets: SecretsTable;
  users: UsersTable;
  api_keys: ApiKeysTable;
  reports: ReportsTable;
  analyses: AnalysesTable;
  rate_limits: RateLimitsTable;
}
