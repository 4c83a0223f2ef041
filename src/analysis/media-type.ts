/** The media type of a Content-Type header, shared by the raw collector and the rendered page. */

/** The lower-cased media type of a Content-Type header, or "" when absent or malformed. */
export function mediaTypeOf(contentType: string | undefined): string {
  const essence = (contentType ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  return /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/.test(essence) ? essence : "";
}
