/**
 * A list-mode crawl's URLs as asked for (`urls`: a repeated field, a JSON array, or text with one URL per line,
 * as pasted or uploaded): each an absolute http(s) URL, normalised like a submitted URL, duplicates dropped, all
 * in one project, at most `maxPages`. Anything else is a 422 naming `urls` that says which line is wrong.
 */
import { InvalidUrl, normaliseSubmittedUrl, projectOf } from "../analysis/submitted-url.js";
import { ValidationFailed } from "../errors.js";

/** Lines a list may hold before duplicates are dropped (a list is read whole before it is judged). */
export const maxListLines = 100_000;

export function urlList(raw: string | string[], maxPages: number): { urls: string[]; project: string } {
  const lines = (Array.isArray(raw) ? raw : [raw]).flatMap((item) => String(item).split(/\r?\n|\r/));
  if (lines.length > maxListLines) {
    throw ValidationFailed.of("urls", `The urls field may hold at most ${maxListLines} lines.`);
  }
  const urls = new Set<string>();
  let project: string | undefined;
  for (const [index, line] of lines.entries()) {
    const text = line.trim();
    if (text === "" || text.startsWith("#")) continue;
    let url: URL;
    try {
      url = normaliseSubmittedUrl(text);
    } catch (error) {
      if (!(error instanceof InvalidUrl)) throw error;
      throw ValidationFailed.of(
        "urls",
        `Line ${index + 1} of the urls field: ${error.message.replace(/^The url /, "the URL ")}`,
      );
    }
    const own = projectOf(url);
    project ??= own;
    if (own !== project) {
      throw ValidationFailed.of(
        "urls",
        `All URLs of the urls field must be in one project: line ${index + 1} is in ${own}, the first in ${project}.`,
      );
    }
    urls.add(url.href);
  }
  if (project === undefined) throw ValidationFailed.of("urls", "The urls field must list at least one URL.");
  if (urls.size > maxPages) {
    throw ValidationFailed.of(
      "urls",
      `The urls field lists ${urls.size} URLs; a crawl fetches at most ${maxPages} (max_pages).`,
    );
  }
  return { urls: [...urls], project };
}
