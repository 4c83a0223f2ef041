/**
 * Run as a process of its own by the analysis pool's tests: parses one page on a pool process, leaves that process
 * idle (its handles unreferenced, so it keeps nothing alive) and closes the pool with nothing else pending. It
 * prints "closed" once `close` has settled; a `close` that waited on a process the event loop no longer watched
 * would end this process with exit code 13 (a top-level await never settled) instead.
 */
import { AnalysisPool } from "../../src/analysis/pool/analysis-pool.js";
import { defaultScoring } from "../../src/analysis/scoring-config.js";

const pool = new AnalysisPool({
  processes: 1,
  timeLimitMs: 600_000,
  memoryLimitMb: 256,
  scoring: defaultScoring,
});
const session = await pool.session("");
await session.parse({
  body: Buffer.from('<!doctype html><html lang="en"><title>Idle</title><body>x</body></html>'),
  contentType: "text/html; charset=utf-8",
  finalUrl: "https://example.com/",
  renderedHtml: null,
});
session.release();
await pool.close();
process.stdout.write("closed\n");
