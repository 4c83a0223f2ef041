/**
 * Typed configuration read from the environment, validated once at start-up with precise messages.
 * Every setting is documented in the README; defaults are safe (private networks are never reachable unless
 * PAGEGRADE_ALLOW_PRIVATE_NETWORKS=1 is set, which is a testing aid).
 */
import { readFileSync } from "node:fs";
import { parseRange } from "./analysis/fetch/address-policy.js";
import { parseScoringOverrides, type ScoringOverrides } from "./analysis/scoring-config.js";

export interface AnalysisConfig {
  allowPrivateNetworks: boolean;
  allowedAddressRanges: string[];
  dnsServers: string[];
  /** PEM certificates trusted in addition to the system's (an internal CA), read from PAGEGRADE_EXTRA_CA_FILE. */
  extraCaCertificates: string | null;
  userAgent: string;
  connectTimeoutMs: number;
  headersTimeoutMs: number;
  fetchTimeoutMs: number;
  probeTimeoutMs: number;
  maxBodyBytes: number;
  maxRedirects: number;
  probeCacheSeconds: number;
  scoring: ScoringOverrides;
}

export interface ServiceConfig {
  host: string;
  port: number;
  /** "sqlite:<path>" or "postgres://…"; the default is SQLite at ./data/pagegrade.db. */
  databaseUrl: string;
  /** Requests per minute per API key; 0 turns the limit off. */
  rateLimit: number;
  /** Analyses (store, re-run) per minute per API key; 0 turns the limit off. */
  analysisRateLimit: number;
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
  /** Analyses kept per report, oldest dropped first; 0 keeps all. */
  historyLimit: number;
}

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
  const logLevel = env.LOG_LEVEL?.trim() || "info";
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
    authFailureLimit: integer(env, "PAGEGRADE_AUTH_FAILURE_LIMIT", 20, 0),
    maxConcurrentAnalyses: integer(env, "PAGEGRADE_MAX_CONCURRENT_ANALYSES", 8, 1),
    logLevel,
    trustProxy: flag(env, "PAGEGRADE_TRUST_PROXY"),
    redisUrl,
    redisKeyPrefix: env.PAGEGRADE_REDIS_KEY_PREFIX?.trim() || "pagegrade:",
    historyLimit: integer(env, "PAGEGRADE_HISTORY_LIMIT", 100, 0),
  };
}

export class ConfigError extends Error {
  override readonly name = "ConfigError";
}

type Env = Record<string, string | undefined>;

export const defaultUserAgent =
  "Mozilla/5.0 (compatible; pagegrade/0.1; +https://github.com/pagegrade/pagegrade)";

export function loadAnalysisConfig(env: Env = process.env): AnalysisConfig {
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
  };
}

function flag(env: Env, name: string): boolean {
  const value = env[name]?.trim().toLowerCase();
  if (value === undefined || value === "" || value === "0" || value === "false") return false;
  if (value === "1" || value === "true") return true;
  throw new ConfigError(`${name} must be 1 or 0, got "${env[name]}"`);
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

function scoringFile(path: string | undefined): ScoringOverrides {
  if (!path?.trim()) return {};
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    throw new ConfigError(`PAGEGRADE_SCORING_FILE: cannot read "${path}"`);
  }
  try {
    return parseScoringOverrides(JSON.parse(text));
  } catch (error) {
    throw new ConfigError(`PAGEGRADE_SCORING_FILE: ${(error as Error).message}`);
  }
}
