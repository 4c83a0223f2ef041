/**
 * What the analysis engine is built with: the fetcher's limits and identity, the address policy, Chromium, the
 * analysis processes and the scoring overrides. The engine owns this type; the entry points fill it from the
 * environment (`loadAnalysisConfig` in src/config.ts) and tests and benchmarks from their own values.
 */

export interface AnalyzerOptions {
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
  /**
   * Overrides of the scoring configuration as the operator wrote them (PAGEGRADE_SCORING_FILE's JSON, `{}` for
   * none); the Analyzer checks them against the shape of `scoring-config.ts` and refuses a wrong one.
   */
  scoring: unknown;
  /** Chromium for rendered mode (PAGEGRADE_CHROMIUM_PATH); rendered mode is unavailable when it is missing. */
  chromiumPath: string;
  /** Chromium's sandbox; off only where Chromium runs as root (PAGEGRADE_CHROMIUM_SANDBOX=0, test machines). */
  chromiumSandbox: boolean;
  /** Pages rendered in Chromium at once (PAGEGRADE_MAX_CONCURRENT_RENDERS); more wait their turn. */
  maxConcurrentRenders: number;
  /** Child processes that parse and judge large pages (PAGEGRADE_ANALYSIS_THREADS); 0: all on the event loop. */
  analysisProcesses: number;
  /** Pages of at least this many bytes go to the analysis processes (PAGEGRADE_THREAD_MIN_BYTES). */
  analysisPoolMinBytes: number;
  /** A page's parse and checks in a process, at most (PAGEGRADE_ANALYSIS_TIME_LIMIT_MS); then `too-complex`. */
  analysisTimeLimitMs: number;
  /** An analysis process's heap, at most (PAGEGRADE_THREAD_MEMORY_MB); then `too-complex`. */
  analysisProcessMemoryMb: number;
  /**
   * An analysis process resident in more than this (MB) after a page is ended and the next page starts a new one
   * (PAGEGRADE_ANALYSIS_RECYCLE_MB); 0: never.
   */
  analysisProcessRecycleMb: number;
}
