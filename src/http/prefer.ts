/**
 * The `Prefer` request header (RFC 7240): whether the client asked for `respond-async`. Preferences are
 * comma-separated, names case-insensitive, and may carry a value or parameters (`respond-async; x=1`), which
 * this one ignores. A server that does not honour a preference ignores it; one that does says so in
 * `Preference-Applied`.
 */
export function prefersRespondAsync(header: string | string[] | undefined): boolean {
  const values = Array.isArray(header) ? header : header === undefined ? [] : [header];
  return values.some((value) =>
    value
      .split(",")
      .some(
        (preference) => preference.split(";")[0]?.split("=")[0]?.trim().toLowerCase() === "respond-async",
      ),
  );
}
