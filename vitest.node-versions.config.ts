/**
 * The fast suite's files that depend on the Node.js version: what .ci/node-suite runs on Node.js 22 and 24 (the
 * whole fast suite runs on Node.js 20 in `npm test`). A file is here when what it tests is Node.js's own or a
 * native module's behaviour, which changes with the major: its processes and their flags, its V8 (heap, regular
 * expressions), its zlib, OpenSSL, ICU, HTTP and sockets, the SQLite driver (a different release per major) and
 * the native modules built for it, and the command's start through the TypeScript loader. The rest (the checks'
 * judgement, the services' rules, the API and the web pages over them) is JavaScript that runs the same on every
 * supported major. `test/architecture/test-configs.test.ts` keeps the list true (every entry exists).
 */
import { defineConfig } from "vitest/config";
import { fastSuiteSettings } from "./vitest.config.ts";

/** Each version-dependent file, with why it depends on the version. */
export const versionDependentFiles: Record<string, string> = {
  // The SQLite driver: better-sqlite3 13 on Node.js 22 and later, 12 (built from source) on Node.js 20; each
  // bundles its own SQLite. Opening, statements and their collection, transactions, migrations' DDL.
  "test/store/sqlite-driver.test.ts": "the driver release chosen for this major, its statements collected",
  "test/store/transaction-batcher.test.ts": "SQLite group commits from a second process through the driver",
  "test/store/analysis-history.test.ts": "SQLite queries and brotli (zlib) stored results through the driver",
  "test/store/url-search.test.ts": "SQLite's LIKE and indexes, of the SQLite the driver bundles",
  "test/store/change-summaries-migration.test.ts": "a migration's DDL on the bundled SQLite",
  "test/store/compact-rows-migration.test.ts": "a migration's DDL on the bundled SQLite",
  "test/store/page-check-codes-migration.test.ts": "a migration's DDL on the bundled SQLite",
  "test/store/report-status-migration.test.ts": "a migration's DDL on the bundled SQLite",
  "test/store/results-once-migration.test.ts": "a migration's DDL on the bundled SQLite",
  "test/store/report-changes.test.ts": "report changes stored through the driver",
  "test/http/key-owner-memory.test.ts": "two SQLite connections and their snapshots through the driver",
  "test/http/reports-api.test.ts": "the API end to end on the SQLite driver (and argon2's native module)",
  // Native modules other than SQLite's: argon2 (N-API, prebuilt), BullMQ's msgpackr on Redis.
  "test/cli/account-commands.test.ts": "argon2's native module for this major, and the command's start",
  "test/jobs/job-queue.test.ts": "BullMQ and ioredis on this major's sockets, msgpackr's native packer",
  // Processes: analysis processes and their memory limits and nice values, the service, the worker, npm start.
  "test/analysis/analysis-pool.test.ts": "analysis processes: fork, IPC, memory limits, nice values, exits",
  "test/architecture/raw-process-modules.test.ts": "the modules a process of this major loads",
  "test/cli/worker-memory-settings.test.ts":
    "bin/pagegrade's exec of this major: V8's semi-space flag, malloc's setting, signals",
  "test/runtime/heap-growth.test.ts": "V8's heap growth flag, set at run time",
  "test/service.test.ts": "the service as a process: start, refusals, stop",
  "test/start-command.test.ts": "npm start and its signals, with this major's npm",
  "test/worker.test.ts": "`pagegrade worker` as a process on PostgreSQL and Redis",
  // The command's start: bin/pagegrade.js registers tsx's loader (module.register), run as node and npm exec.
  "test/cli/analyze-command.test.ts": "the command's start through the loader, and Chromium driven by it",
  "test/cli/analyze-gate.test.ts": "the command's exit codes through the loader",
  "test/cli/crawl-gate.test.ts": "the command's crawl and exit codes through the loader",
  "test/cli/relative-paths.test.ts": "the command started by node and by this major's npm exec",
  // Network: undici over this major's sockets, TLS (OpenSSL), HTTP/2, zlib (zstd arrives in 22.15), proxies.
  "test/analysis/fetch/zstd.test.ts": "zstd in zlib: Node.js 22.15 and later only",
  "test/analysis/fetch/tls-and-http2.test.ts": "TLS and HTTP/2 of this major's OpenSSL and http2",
  "test/analysis/fetch/connection-guard.test.ts": "socket connection hooks and address parsing (net, dns)",
  "test/analysis/fetch/guarded-get.test.ts": "undici on this major's sockets and streams",
  "test/analysis/fetch/body-buffer.test.ts": "stream back-pressure and buffers",
  "test/analysis/render/guard-proxy.test.ts": "node:http CONNECT and upgrade handling",
  "test/analysis/checks/text-compression.test.ts": "zlib's gzip, deflate and brotli",
  "test/store/secret-box.test.ts": "AES-GCM of this major's OpenSSL",
  // V8 and ICU: regular expressions' run time, text decoders, word segmentation, locale tags.
  "test/analysis/regex-audit.test.ts": "V8's regular expression engine on hostile input",
  "test/analysis/charset-decoding.test.ts": "TextDecoder's encodings, from this major's ICU",
  "test/analysis/checks/content-keywords.test.ts": "Intl.Segmenter's words, from this major's ICU",
  "test/analysis/checks/content-length.test.ts": "Intl.Segmenter's words, from this major's ICU",
  "test/analysis/checks/language.test.ts": "Intl.getCanonicalLocales, from this major's ICU",
};

export default defineConfig({
  test: { ...fastSuiteSettings, include: Object.keys(versionDependentFiles) },
});
