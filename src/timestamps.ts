/** Timestamps as the API writes them: ISO-8601 UTC with microseconds ("2026-11-20T10:15:30.123000Z"). */

export function timestamp(date: Date = new Date()): string {
  return `${date.toISOString().slice(0, 23)}000Z`;
}

/** Converts an ISO string with millisecond precision (as the engine writes it) to the API's form. */
export function toTimestamp(iso: string): string {
  return timestamp(new Date(iso));
}
