/**
 * A stored report as the API shows it, and as webhooks send it (without its results). The analysis documents
 * are spliced in as the store hands them over — summary and categories as stored, the results as the UTF-8 bytes
 * their packed form unpacks to — so listing 100 reports parses and re-encodes nothing. Internal columns (user
 * id, password hash) never appear.
 */
import type { DisplayRow, ReportRow } from "../store/report-store.js";

/** The report object as UTF-8 JSON; `results: false` leaves the results out (webhook payloads). */
export function reportJson(
  row: ReportRow | DisplayRow,
  { results = true }: { results?: boolean } = {},
): Buffer {
  const head = JSON.stringify({
    id: row.id,
    object: "report",
    url: row.url,
    final_url: row.final_url,
    project: row.project,
    result: row.result,
    score: row.score,
    privacy: row.privacy,
    password: row.password_hash !== null,
    status: row.status,
    error:
      row.status === "failed" && row.error_reason !== null
        ? { reason: row.error_reason, message: row.error_message }
        : null,
    mode: row.mode,
    schedule: row.schedule,
    next_run_at: row.next_run_at,
  });
  const tail = JSON.stringify({
    analyses: row.analyses,
    analysis_id: row.analysis_id,
    score_change: row.score_change,
    generated_at: row.generated_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  });
  return Buffer.concat([
    Buffer.from(`${head.slice(0, -1)},"summary":`),
    bytes(row.summary),
    Buffer.from(',"categories":'),
    bytes(row.categories),
    ...(results ? [Buffer.from(',"results":'), bytes(row.results)] : []),
    Buffer.from(`,${tail.slice(1)}`),
  ]);
}

/** Wraps a report in the show/store/update envelope: {"data": …, "status": …}. */
export function reportEnvelope(row: ReportRow | DisplayRow, status: number): Buffer {
  return Buffer.concat([Buffer.from('{"data":'), reportJson(row), Buffer.from(`,"status":${status}}`)]);
}

const jsonNull = Buffer.from("null");

/** A stored JSON document as bytes; null (no complete analysis yet) as JSON null. */
function bytes(document: string | Buffer | null): Buffer {
  if (document === null) return jsonNull;
  return typeof document === "string" ? Buffer.from(document) : document;
}
