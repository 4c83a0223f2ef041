/**
 * A URL as a person types it into a web form: `example.com/page` (no scheme) is read as `https://example.com/page`,
 * the way a browser's address bar reads it. Anything with a scheme, and the empty string, is left as it is (the
 * service then judges it as always). The API takes URLs as given: its contract asks for absolute URLs.
 */
export function typedUrl(text: string): string {
  const trimmed = text.trim();
  if (trimmed === "" || /^[a-z][a-z0-9+.-]*:/i.test(trimmed)) return trimmed;
  return `https://${trimmed.replace(/^\/\//, "")}`;
}
