/** hreflang: every language alternate has a valid language code and an absolute URL. */
import { parseLinkHeader, relTokens } from "../link-header.js";
import { isLanguageTag } from "../text/language-tag.js";
import { type CheckDefinition, outcome, plural, verb } from "./check.js";

export const hreflang: CheckDefinition = {
  id: "hreflang",
  category: "seo",
  importance: "low",
  title: "Language alternates",
  description: "Links to the page's other language versions use valid language codes and absolute URLs.",
  howToFix:
    'Write each alternate as <link rel="alternate" hreflang="de-AT" href="https://…"> with a valid BCP 47 code (or x-default) and a full URL.',
  run(page) {
    const alternates = [
      ...page.document.links
        .filter((link) => link.rel.includes("alternate") && link.hreflang !== null)
        .map((link) => ({ hreflang: link.hreflang ?? "", href: link.rawHref ?? "" })),
      ...parseLinkHeader(page.response.headers.link)
        .filter((link) => relTokens(link).includes("alternate") && link.params.hreflang !== undefined)
        .map((link) => ({ hreflang: link.params.hreflang ?? "", href: link.target })),
    ];
    if (alternates.length === 0) return outcome.na("The page declares no language alternates.");
    const bad = alternates
      .map((alternate) => ({ ...alternate, problem: problemOf(alternate.hreflang, alternate.href) }))
      .filter((alternate) => alternate.problem !== null);
    if (bad.length > 0) {
      return outcome.fail(
        `${bad.length} of ${plural(alternates.length, "language alternate")} ${verb(bad.length, "is", "are")} invalid (${bad[0]?.problem}).`,
        bad.length,
        bad.map(({ hreflang: code, href, problem }) => ({ hreflang: code, href, problem })),
      );
    }
    return outcome.pass(`${plural(alternates.length, "language alternate")}, all valid.`, alternates.length);
  },
};

function problemOf(code: string, href: string): string | null {
  if (code.trim() === "") return "the hreflang is empty";
  if (code.trim().toLowerCase() !== "x-default" && !isLanguageTag(code.trim()))
    return `"${code}" is not a valid language code`;
  if (href.trim() === "") return "the href is empty";
  try {
    const url = new URL(href.trim());
    if (url.protocol !== "http:" && url.protocol !== "https:") return "the URL is not http(s)";
  } catch {
    return "the URL is not absolute";
  }
  return null;
}
