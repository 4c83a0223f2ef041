/** plaintext-email: e-mail addresses are not left where harvesting bots read them. */
import { type CheckDefinition, outcome, plural } from "./check.js";

/**
 * The lookbehind starts a match only where a run of local-part characters starts: retrying from every character
 * of the run, each time against the whole domain, made a page of near-addresses cost seconds.
 */
const emailPattern =
  /(?<![\p{L}\p{N}._%+-])[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.(\p{L}{2,24})\b/gu;
/** "logo@2x.png" is an asset name, not an address. */
const fileExtensions = new Set([
  "png",
  "jpg",
  "jpeg",
  "gif",
  "webp",
  "avif",
  "svg",
  "css",
  "js",
  "ico",
  "bmp",
  "tiff",
  "mp4",
  "webm",
  "woff",
  "woff2",
]);

export const plaintextEmail: CheckDefinition = {
  id: "plaintext-email",
  category: "security",
  importance: "low",
  title: "Exposed e-mail addresses",
  description:
    "The page does not show e-mail addresses in plain text or mailto: links, which spam bots harvest.",
  howToFix:
    "Use a contact form, or render addresses in a way bots do not read (for example assembled by a script on click).",
  run(page) {
    const found = new Map<string, string>();
    for (const candidate of textAroundAtSigns(page.document.text)) {
      for (const match of candidate.matchAll(emailPattern)) {
        if (!fileExtensions.has((match[1] ?? "").toLowerCase())) found.set(match[0].toLowerCase(), "text");
      }
    }
    for (const anchor of page.document.anchors) {
      const raw = anchor.rawHref?.trim() ?? "";
      if (/^mailto:/i.test(raw)) {
        const address = decodeSafely(raw.slice(7).split("?")[0] ?? "").toLowerCase();
        if (address) found.set(address, "mailto link");
      }
    }
    if (found.size > 0) {
      const items = [...found].map(([address, where]) => ({ address, where }));
      return outcome.warn(
        `The page exposes ${plural(found.size, "e-mail address", "e-mail addresses")}.`,
        found.size,
        items,
      );
    }
    return outcome.pass("The page exposes no e-mail address.", 0);
  },
};

/**
 * The words around each "@" in the text: running the e-mail pattern on these few snippets instead of the
 * whole text keeps the check cheap on long pages.
 */
function* textAroundAtSigns(text: string): Generator<string> {
  let end = -1;
  for (let at = text.indexOf("@"); at !== -1; at = text.indexOf("@", at + 1)) {
    if (at < end) continue;
    // An address has at most 64 characters before the "@" and 255 after it.
    const start = Math.max(0, text.lastIndexOf(" ", at) + 1, end, at - 64);
    const space = text.indexOf(" ", at);
    end = Math.min(space === -1 ? text.length : space, at + 256);
    yield text.slice(start, end);
  }
}

function decodeSafely(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
