/**
 * Typed configuration read from the environment, validated once at start-up with precise messages.
 * Every setting is documented in the README; defaults are safe (private networks are never reachable unless
 * PAGEGRADE_ALLOW_PRIVATE_NETWORKS=1 is set, which is a testing aid).
 */
import { readFileSync } from "node:fs";
import { parseRange } from "./ip-range.js";

export interface ServiceConfig {
  host: string;
  port: number;
  /** "sqlite:<path>" or "postgres://…"; the default is SQLite at ./data/pagegrade.db. */
  databaseUrl: string;
  /** Requests per minute per API key; 0 turns the limit off. */
  rateLimit: number;
  /** Analyses (store, re-run) per minute per user, from any door; 0 turns the limit off. */
  analysisRateLimit: number;
  /** Crawl starts per minute per user (PAGEGRADE_CRAWL_START_RATE_LIMIT); 0 turns the limit off. */
  crawlStartRateLimit: number;
  /** Webhook pings per minute per user (PAGEGRADE_PING_RATE_LIMIT); 0 turns the limit off. */
  pingRateLimit: number;
  /** Report PDFs per minute per user, or per client address when not signed in (PAGEGRADE_PDF_RATE_LIMIT). */
  pdfRateLimit: number;
  /** Sign-ups per hour per client address (PAGEGRADE_SIGNUP_RATE_LIMIT); 0 turns the limit off. */
  signUpRateLimit: number;
  /** Teams created per hour per user (PAGEGRADE_TEAM_RATE_LIMIT); 0 turns the limit off. */
  teamRateLimit: number;
  /** Team invitations per hour per user (PAGEGRADE_INVITATION_RATE_LIMIT); 0 turns the limit off. */
  invitationRateLimit: number;
  /** Crawl event streams open at once per user (PAGEGRADE_EVENT_STREAMS_PER_USER). */
  eventStreamsPerUser: number;
  /** Failed authentications per minute per client address before 429. */
  authFailureLimit: number;
  /** Analyses running at once in this process; more get 503 with Retry-After. */
  maxConcurrentAnalyses: number;
  logLevel: string;
  /** Trust X-Forwarded-For from a proxy in front (for client addresses). */
  trustProxy: boolean;
  /** "redis://…" or "rediss://…": rate-limit counters in Redis instead of the database; null when unset. */
  redisUrl: string | null;
  /** Prefix of every Redis key, so several deployments can share one Redis. */
  redisKeyPrefix: string;
  /** "redis://…": the distributed job queue (BullMQ); null: the embedded queue in the service's own database. */
  queueUrl: string | null;
  /** Jobs this process runs at once; 0: it runs none (it still enqueues). */
  workers: number;
  /**
   * Crawl parts (`crawl` jobs) this process runs at once, within its workers (PAGEGRADE_CRAWL_WORKERS): default
   * 2, or PAGEGRADE_WORKERS when that is smaller; set above PAGEGRADE_WORKERS, refused.
   */
  crawlWorkers: number;
  /** How long a worker's claim on a job holds without renewal; a dead worker's jobs are taken over after it. */
  jobLeaseSeconds: number;
  /** At shutdown, how long running jobs may take to finish before they are handed back to the queue. */
  jobGraceSeconds: number;
  /** Analyses kept per report, oldest dropped first; 0 keeps all. */
  historyLimit: number;
  /** Memory for finished API responses (reports lists and reports), in bytes; 0 turns the cache off. */
  responseCacheBytes: number;
  /** Chromium for reports as PDF (PAGEGRADE_CHROMIUM_PATH, the one rendered mode uses); PDFs are unavailable without it. */
  chromiumPath: string;
  /** Chromium's sandbox (PAGEGRADE_CHROMIUM_SANDBOX), as for rendered mode. */
  chromiumSandbox: boolean;
  /** Report PDFs made at once in this process (PAGEGRADE_MAX_CONCURRENT_PDFS); a few more wait their turn. */
  maxConcurrentPdfs: number;
  /** Seconds between a scheduled report's analyses, per schedule (PAGEGRADE_SCHEDULE_INTERVALS). */
  scheduleIntervals: ScheduleIntervals;
  /** Seconds to wait before each retry of a webhook delivery (PAGEGRADE_WEBHOOK_RETRY_SCHEDULE). */
  webhookRetrySchedule: number[];
  /** Webhook deliveries this process sends at once, in slots of their own (PAGEGRADE_WEBHOOK_CONCURRENCY). */
  webhookConcurrency: number;
  /** Seconds a receiver has to accept the connection and answer (PAGEGRADE_WEBHOOK_TIMEOUT_SECONDS). */
  webhookTimeoutSeconds: number;
  /** A score drop of at least this many points announces `report.regressed` (PAGEGRADE_REGRESSION_SCORE_DROP). */
  regressionScoreDrop: number;
  /** 32 bytes that encrypt webhook secrets at rest (PAGEGRADE_ENCRYPTION_KEY); null stores them as they are. */
  encryptionKey: Buffer | null;
  /** Mail through the operator's SMTP server; null when not set up (every mail feature then says so). */
  mail: MailSettings | null;
  crawls: CrawlSettings;
}

/** PAGEGRADE_SMTP_URL, PAGEGRADE_MAIL_FROM and PAGEGRADE_PUBLIC_URL, all three set (see src/mail/). */
export interface MailSettings {
  /** "smtp://user:password@host:port" or "smtps://…"; never logged as it is (see `redactedSmtpUrl`). */
  smtpUrl: string;
  /** The From address of every mail. */
  from: string;
  /** The base of every link in a mail: "https://pagegrade.example.com", no trailing slash. */
  publicUrl: string;
  /** Seconds the SMTP server has for each step: connect, greet, answer a command (PAGEGRADE_SMTP_TIMEOUT_SECONDS). */
  timeoutSeconds: number;
  /** Seconds before each retry of a mail (PAGEGRADE_MAIL_RETRY_SCHEDULE): 5 attempts within an hour by default. */
  retrySchedule: number[];
}

export interface CrawlSettings {
  /** The most pages one crawl may fetch (PAGEGRADE_CRAWL_MAX_PAGES). */
  maxPages: number;
  /** Queued or running crawls per user (PAGEGRADE_CRAWLS_PER_USER). */
  perUser: number;
  /** Requests at once per host (PAGEGRADE_CRAWL_HOST_CONCURRENCY). */
  hostConcurrency: number;
  /** Milliseconds between request starts per host (PAGEGRADE_CRAWL_DELAY_MS), or the Crawl-delay if longer. */
  delayMs: number;
  /** What a crawl stores of what it finds (see crawl-bounds.ts); the defaults when absent. */
  bounds?: CrawlBoundSettings;
  /**
   * A crawl part's turn (PAGEGRADE_CRAWL_SLICE_SECONDS, PAGEGRADE_CRAWL_SLICE_PAGES): after this long or this many
   * pages it hands its slot back and queues its continuation, so users' crawls take turns. The defaults when absent.
   */
  slice?: CrawlSlice;
}

/** How long a crawl part runs before it gives its slot back (see crawls/crawler.ts, `CrawlRun.work`). */
export interface CrawlSlice {
  ms: number;
  pages: number;
}

export const defaultCrawlSlice: CrawlSlice = { ms: 5_000, pages: 500 };

/** What a crawl stores of what it finds (see crawls/crawl-bounds.ts): the operator's settings (PAGEGRADE_CRAWL_URLS_PER_PAGE, …_LINKS_PER_PAGE, …_MEAN_PAGE_LINKS). */
export interface CrawlBoundSettings {
  urlsPerPage: number;
  linksPerPage: number;
  meanLinksPerPage: number;
}

export const defaultCrawlBounds: CrawlBoundSettings = {
  urlsPerPage: 10,
  linksPerPage: 1_000,
  meanLinksPerPage: 200,
};

export interface ScheduleIntervals {
  daily: number;
  weekly: number;
}

export const defaultScheduleIntervals: ScheduleIntervals = { daily: 86_400, weekly: 604_800 };

export const defaultDatabaseUrl = "sqlite:./data/pagegrade.db";

export function loadServiceConfig(env: Env = process.env): ServiceConfig {
  const databaseUrl = env.DATABASE_URL?.trim() || defaultDatabaseUrl;
  if (!/^(sqlite:|postgres(ql)?:\/\/)/.test(databaseUrl)) {
    throw new ConfigError(`DATABASE_URL must start with sqlite: or postgres://, got "${databaseUrl}"`);
  }
  const redisUrl = env.REDIS_URL?.trim() || null;
  if (redisUrl !== null && !/^rediss?:\/\/[^\s]+$/.test(redisUrl)) {
    throw new ConfigError("REDIS_URL must start with redis:// or rediss://");
  }
  const queueUrl = env.PAGEGRADE_QUEUE_URL?.trim() || null;
  if (queueUrl !== null && !/^rediss?:\/\/[^\s]+$/.test(queueUrl)) {
    throw new ConfigError(
      "PAGEGRADE_QUEUE_URL must start with redis:// or rediss:// (leave it unset for the embedded queue)",
    );
  }
  const logLevel = env.LOG_LEVEL?.trim() || "info";
  const workers = integer(env, "PAGEGRADE_WORKERS", 4, 0);
  if (!["fatal", "error", "warn", "info", "debug", "trace", "silent"].includes(logLevel)) {
    throw new ConfigError(
      `LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "${logLevel}"`,
    );
  }
  return {
    host: env.HOST?.trim() || "127.0.0.1",
    port: integer(env, "PORT", 3000, 0),
    databaseUrl,
    rateLimit: integer(env, "PAGEGRADE_RATE_LIMIT", 60, 0),
    analysisRateLimit: integer(env, "PAGEGRADE_ANALYSIS_RATE_LIMIT", 10, 0),
    crawlStartRateLimit: integer(env, "PAGEGRADE_CRAWL_START_RATE_LIMIT", 5, 0),
    pingRateLimit: integer(env, "PAGEGRADE_PING_RATE_LIMIT", 5, 0),
    pdfRateLimit: integer(env, "PAGEGRADE_PDF_RATE_LIMIT", 5, 0),
    signUpRateLimit: integer(env, "PAGEGRADE_SIGNUP_RATE_LIMIT", 5, 0),
    teamRateLimit: integer(env, "PAGEGRADE_TEAM_RATE_LIMIT", 10, 0),
    invitationRateLimit: integer(env, "PAGEGRADE_INVITATION_RATE_LIMIT", 30, 0),
    eventStreamsPerUser: integer(env, "PAGEGRADE_EVENT_STREAMS_PER_USER", 4, 1),
    authFailureLimit: integer(env, "PAGEGRADE_AUTH_FAILURE_LIMIT", 20, 0),
    maxConcurrentAnalyses: integer(env, "PAGEGRADE_MAX_CONCURRENT_ANALYSES", 8, 1),
    logLevel,
    trustProxy: flag(env, "PAGEGRADE_TRUST_PROXY"),
    redisUrl,
    redisKeyPrefix: env.PAGEGRADE_REDIS_KEY_PREFIX?.trim() || "pagegrade:",
    queueUrl,
    workers,
    crawlWorkers: crawlWorkers(env, workers),
    jobLeaseSeconds: integer(env, "PAGEGRADE_JOB_LEASE_SECONDS", 30, 1),
    jobGraceSeconds: integer(env, "PAGEGRADE_JOB_GRACE_SECONDS", 10, 0),
    historyLimit: integer(env, "PAGEGRADE_HISTORY_LIMIT", 100, 0),
    responseCacheBytes: integer(env, "PAGEGRADE_RESPONSE_CACHE_MB", 64, 0) * 1024 * 1024,
    chromiumPath: chromiumPath(env.PAGEGRADE_CHROMIUM_PATH),
    chromiumSandbox: chromiumSandbox(env),
    maxConcurrentPdfs: integer(env, "PAGEGRADE_MAX_CONCURRENT_PDFS", 1, 1),
    scheduleIntervals: scheduleIntervals(env.PAGEGRADE_SCHEDULE_INTERVALS),
    webhookRetrySchedule: retrySchedule(env.PAGEGRADE_WEBHOOK_RETRY_SCHEDULE),
    webhookConcurrency: integer(env, "PAGEGRADE_WEBHOOK_CONCURRENCY", 4, 1),
    webhookTimeoutSeconds: webhookTimeoutSeconds(env),
    regressionScoreDrop: integer(env, "PAGEGRADE_REGRESSION_SCORE_DROP", 5, 1),
    encryptionKey: encryptionKey(env.PAGEGRADE_ENCRYPTION_KEY),
    mail: mailSettings(env),
    crawls: {
      maxPages: integer(env, "PAGEGRADE_CRAWL_MAX_PAGES", 10_000, 1),
      perUser: integer(env, "PAGEGRADE_CRAWLS_PER_USER", 2, 1),
      hostConcurrency: integer(env, "PAGEGRADE_CRAWL_HOST_CONCURRENCY", 2, 1),
      delayMs: integer(env, "PAGEGRADE_CRAWL_DELAY_MS", 250, 0),
      slice: {
        ms: 1000 * integer(env, "PAGEGRADE_CRAWL_SLICE_SECONDS", defaultCrawlSlice.ms / 1000, 1),
        pages: integer(env, "PAGEGRADE_CRAWL_SLICE_PAGES", defaultCrawlSlice.pages, 1),
      },
      bounds: {
        urlsPerPage: integer(env, "PAGEGRADE_CRAWL_URLS_PER_PAGE", defaultCrawlBounds.urlsPerPage, 1),
        linksPerPage: integer(env, "PAGEGRADE_CRAWL_LINKS_PER_PAGE", defaultCrawlBounds.linksPerPage, 1),
        meanLinksPerPage: integer(
          env,
          "PAGEGRADE_CRAWL_MEAN_PAGE_LINKS",
          defaultCrawlBounds.meanLinksPerPage,
          1,
        ),
      },
    },
  };
}

/** The default crawl parts a process runs at once. */
export const defaultCrawlWorkers = 2;

/**
 * Crawl parts run at once: the shared workers bound them, so a value above PAGEGRADE_WORKERS (when this process
 * runs jobs) would not do what it says and is refused; unset, 2 or PAGEGRADE_WORKERS when smaller.
 */
function crawlWorkers(env: Env, workers: number): number {
  const set = env.PAGEGRADE_CRAWL_WORKERS?.trim();
  const parts = integer(env, "PAGEGRADE_CRAWL_WORKERS", defaultCrawlWorkers, 1);
  if (!set) return Math.max(1, Math.min(parts, workers));
  if (workers > 0 && parts > workers) {
    throw new ConfigError(
      `PAGEGRADE_CRAWL_WORKERS must be at most PAGEGRADE_WORKERS (${workers}): crawl parts run in the shared workers, got "${set}"`,
    );
  }
  return parts;
}

/** 1, 5, 15 and 35 minutes: 5 attempts within 56 minutes. */
export const defaultMailRetrySchedule = [60, 300, 900, 2100];

/**
 * The three mail settings together, or none (mail not set up); one alone is refused, so a typo does not
 * silently turn mail off. The SMTP URL's password never appears in a message.
 */
function mailSettings(env: Env): MailSettings | null {
  const smtpUrl = env.PAGEGRADE_SMTP_URL?.trim() || "";
  const from = env.PAGEGRADE_MAIL_FROM?.trim() || "";
  const publicUrl = env.PAGEGRADE_PUBLIC_URL?.trim() || "";
  if (!smtpUrl && !from && !publicUrl) return null;
  if (!smtpUrl || !from || !publicUrl) {
    throw new ConfigError(
      "mail needs PAGEGRADE_SMTP_URL, PAGEGRADE_MAIL_FROM and PAGEGRADE_PUBLIC_URL together (set all three, or none to run without mail)",
    );
  }
  let smtp: URL;
  try {
    smtp = new URL(smtpUrl);
  } catch {
    smtp = new URL("invalid:");
  }
  if (!["smtp:", "smtps:"].includes(smtp.protocol) || !smtp.hostname || /[\s]/.test(smtpUrl)) {
    throw new ConfigError(
      `PAGEGRADE_SMTP_URL must look like smtp://user:password@host:587 or smtps://user:password@host:465, got "${redactedSmtpUrl(smtpUrl)}"`,
    );
  }
  if (!/^[^\s@<>"(),;:\\[\]]+@[^\s@<>"(),;:\\[\]]+\.[^\s@<>"(),;:\\[\]]+$/.test(from) || from.length > 254) {
    throw new ConfigError(
      `PAGEGRADE_MAIL_FROM must be an e-mail address such as pagegrade@example.com, got "${from}"`,
    );
  }
  let base: URL | null = null;
  try {
    base = new URL(publicUrl);
  } catch {}
  if (!base || !["http:", "https:"].includes(base.protocol) || base.search || base.hash || base.username) {
    throw new ConfigError(
      `PAGEGRADE_PUBLIC_URL must be an absolute http(s) address such as https://pagegrade.example.com, got "${publicUrl}"`,
    );
  }
  return {
    smtpUrl,
    from,
    publicUrl: base.href.replace(/\/+$/, ""),
    timeoutSeconds: integer(env, "PAGEGRADE_SMTP_TIMEOUT_SECONDS", 30, 1),
    retrySchedule: retrySchedule(
      env.PAGEGRADE_MAIL_RETRY_SCHEDULE,
      "PAGEGRADE_MAIL_RETRY_SCHEDULE",
      defaultMailRetrySchedule,
    ),
  };
}

/** The SMTP URL with its password replaced by "***", for messages and logs. */
export function redactedSmtpUrl(raw: string): string {
  try {
    const url = new URL(raw);
    if (url.password) url.password = "***";
    return url.href;
  } catch {
    return raw.replace(/:[^:@/]*@/, ":***@");
  }
}

export const defaultWebhookRetrySchedule = [5, 300, 1800, 7200, 18000, 36000, 50400];

/** "5,300,1800": seconds before each retry; at most 20 retries, each at most a week. */
function retrySchedule(
  raw: string | undefined,
  name = "PAGEGRADE_WEBHOOK_RETRY_SCHEDULE",
  fallback = defaultWebhookRetrySchedule,
): number[] {
  if (raw === undefined || raw.trim() === "") return fallback;
  const delays = raw.split(",").map((item) => item.trim());
  const valid = delays.every((item) => /^\d+$/.test(item) && Number(item) >= 1 && Number(item) <= 604_800);
  if (!valid || delays.length > 20) {
    throw new ConfigError(
      `${name} must be up to 20 comma-separated delays in seconds (1 to 604800), got "${raw}"`,
    );
  }
  return delays.map(Number);
}

/** 32 bytes, written as 64 hex digits or in base64. */
function encryptionKey(raw: string | undefined): Buffer | null {
  const text = raw?.trim();
  if (!text) return null;
  const key = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, "hex") : Buffer.from(text, "base64");
  if (key.length !== 32 || (!/^[0-9a-fA-F]{64}$/.test(text) && key.toString("base64") !== text)) {
    throw new ConfigError(
      "PAGEGRADE_ENCRYPTION_KEY must be 32 bytes, as 64 hex digits or base64 (make one with: openssl rand -base64 32)",
    );
  }
  return key;
}

/** "daily=86400,weekly=604800": either or both, in seconds; the other keeps its default. */
function scheduleIntervals(raw: string | undefined): ScheduleIntervals {
  const intervals = { ...defaultScheduleIntervals };
  for (const item of list(raw)) {
    const match = /^(daily|weekly)\s*=\s*(\d+)$/.exec(item);
    if (!match || Number(match[2]) < 1 || !Number.isSafeInteger(Number(match[2]))) {
      throw new ConfigError(
        `PAGEGRADE_SCHEDULE_INTERVALS must look like "daily=86400,weekly=604800" (seconds, at least 1), got "${item}"`,
      );
    }
    intervals[match[1] as keyof ScheduleIntervals] = Number(match[2]);
  }
  return intervals;
}

export class ConfigError extends Error {
  override readonly name = "ConfigError";
}

type Env = Record<string, string | undefined>;

export const defaultUserAgent =
  "Mozilla/5.0 (compatible; pagegrade/0.1; +https://github.com/pagegrade/pagegrade)";

/**
 * The analysis engine's settings, as plain values: the engine's `AnalyzerOptions` (src/analysis/) says what each
 * means, and the entry points hand these to it. The scoring file is read here and checked by the engine, which
 * knows the shape of its scoring configuration.
 */
export function loadAnalysisConfig(env: Env = process.env) {
  const ranges = list(env.PAGEGRADE_ALLOWED_ADDRESSES);
  for (const range of ranges) {
    try {
      parseRange(range);
    } catch (error) {
      throw new ConfigError(`PAGEGRADE_ALLOWED_ADDRESSES: ${(error as Error).message}`);
    }
  }
  return {
    allowPrivateNetworks: flag(env, "PAGEGRADE_ALLOW_PRIVATE_NETWORKS"),
    allowedAddressRanges: ranges,
    dnsServers: list(env.PAGEGRADE_DNS_SERVERS),
    extraCaCertificates: extraCa(env.PAGEGRADE_EXTRA_CA_FILE),
    userAgent: env.PAGEGRADE_USER_AGENT?.trim() || defaultUserAgent,
    connectTimeoutMs: integer(env, "PAGEGRADE_CONNECT_TIMEOUT_MS", 5_000, 1),
    headersTimeoutMs: integer(env, "PAGEGRADE_HEADERS_TIMEOUT_MS", 10_000, 1),
    fetchTimeoutMs: integer(env, "PAGEGRADE_FETCH_TIMEOUT_MS", 15_000, 1),
    probeTimeoutMs: integer(env, "PAGEGRADE_PROBE_TIMEOUT_MS", 5_000, 1),
    maxBodyBytes: integer(env, "PAGEGRADE_MAX_BODY_BYTES", 5 * 1024 * 1024, 1024),
    maxRedirects: integer(env, "PAGEGRADE_MAX_REDIRECTS", 5, 0),
    probeCacheSeconds: integer(env, "PAGEGRADE_PROBE_CACHE_SECONDS", 300, 0),
    scoring: scoringFile(env.PAGEGRADE_SCORING_FILE),
    chromiumPath: chromiumPath(env.PAGEGRADE_CHROMIUM_PATH),
    chromiumSandbox: chromiumSandbox(env),
    maxConcurrentRenders: integer(env, "PAGEGRADE_MAX_CONCURRENT_RENDERS", 2, 1),
    analysisProcesses: integer(env, "PAGEGRADE_ANALYSIS_THREADS", 2, 0),
    analysisPoolMinBytes: integer(env, "PAGEGRADE_THREAD_MIN_BYTES", 64 * 1024, 0),
    analysisTimeLimitMs: integer(env, "PAGEGRADE_ANALYSIS_TIME_LIMIT_MS", 60_000, 100),
    analysisProcessMemoryMb: integer(env, "PAGEGRADE_THREAD_MEMORY_MB", 512, 64),
    analysisProcessRecycleMb: integer(env, "PAGEGRADE_ANALYSIS_RECYCLE_MB", 0, 0),
  };
}

export const defaultChromiumPath = "/usr/bin/chromium";

/** An absolute path; whether Chromium is there is checked when rendering, so a server without it still starts. */
function chromiumPath(raw: string | undefined): string {
  const path = raw?.trim() || defaultChromiumPath;
  if (!path.startsWith("/")) {
    throw new ConfigError(`PAGEGRADE_CHROMIUM_PATH must be an absolute path, got "${path}"`);
  }
  return path;
}

/** On unless PAGEGRADE_CHROMIUM_SANDBOX=0 (Chromium cannot have a sandbox as root). */
function chromiumSandbox(env: Env): boolean {
  return env.PAGEGRADE_CHROMIUM_SANDBOX?.trim() ? flag(env, "PAGEGRADE_CHROMIUM_SANDBOX") : true;
}

function flag(env: Env, name: string): boolean {
  const value = env[name]?.trim().toLowerCase();
  if (value === undefined || value === "" || value === "0" || value === "false") return false;
  if (value === "1" || value === "true") return true;
  throw new ConfigError(`${name} must be 1 or 0, got "${env[name]}"`);
}

/** 1 to 15 seconds (a 2xx within 15 s is a success): a delivery holds one of the webhook slots this long at most. */
function webhookTimeoutSeconds(env: Env): number {
  const seconds = integer(env, "PAGEGRADE_WEBHOOK_TIMEOUT_SECONDS", 15, 1);
  if (seconds > 15) {
    throw new ConfigError(`PAGEGRADE_WEBHOOK_TIMEOUT_SECONDS must be at most 15, got "${seconds}"`);
  }
  return seconds;
}

function integer(env: Env, name: string, fallback: number, min: number): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === "") return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || !Number.isSafeInteger(Number(raw))) {
    throw new ConfigError(`${name} must be a whole number of at least ${min}, got "${raw}"`);
  }
  return Number(raw);
}

function list(raw: string | undefined): string[] {
  return (raw ?? "")
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);
}

function extraCa(path: string | undefined): string | null {
  if (!path?.trim()) return null;
  let pem: string;
  try {
    pem = readFileSync(path, "utf8");
  } catch {
    throw new ConfigError(`PAGEGRADE_EXTRA_CA_FILE: cannot read "${path}"`);
  }
  if (!pem.includes("-----BEGIN CERTIFICATE-----")) {
    throw new ConfigError(`PAGEGRADE_EXTRA_CA_FILE: "${path}" holds no PEM certificate`);
  }
  return pem;
}

/** The scoring file's JSON as written; the engine checks its shape when it is built (see AnalyzerOptions). */
function scoringFile(path: string | undefined): unknown {
  if (!path?.trim()) return {};
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    throw new ConfigError(`PAGEGRADE_SCORING_FILE: cannot read "${path}"`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`PAGEGRADE_SCORING_FILE: ${(error as Error).message}`);
  }
}
