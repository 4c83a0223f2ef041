/**
 * The page to return to after signing in or up (`next`): only a path on this site, so a link can never send a
 * user who signs in to another origin (no open redirect). Anything else, an absolute or scheme-relative URL, a
 * backslash (which browsers read as a slash), a control character, too long, or a path whose dot segments resolve
 * to a scheme-relative one ("/..//evil.example"), is ignored (null).
 */

const maxLength = 2000;
const base = "http://pagegrade.invalid";

/** The same-origin path (with its query) that `value` names, or null when it is not one. */
export function safeReturnPath(value: unknown): string | null {
  if (typeof value !== "string" || value.length === 0 || value.length > maxLength) return null;
  if (!value.startsWith("/") || value.startsWith("//") || value.includes("\\") || hasControl(value))
    return null;
  let url: URL;
  try {
    url = new URL(value, base);
  } catch {
    return null;
  }
  if (url.origin !== base) return null;
  // Dot segments resolve away: "/..//evil.example" is the path "//evil.example", which a browser given it as a
  // Location reads as another host. The path returned must itself be one this check accepts.
  const path = `${url.pathname}${url.search}`;
  if (path.startsWith("//") || path.includes("\\")) return null;
  return path;
}

function hasControl(value: string): boolean {
  for (let index = 0; index < value.length; index++) {
    const code = value.charCodeAt(index);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/** `path` with `?next=` (or `&next=`) naming the page to return to, when there is one. */
export function withReturnPath(path: string, next: string | null): string {
  if (next === null) return path;
  return `${path}${path.includes("?") ? "&" : "?"}next=${encodeURIComponent(next)}`;
}
