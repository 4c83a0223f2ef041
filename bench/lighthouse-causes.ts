/**
 * Names the cause of a disagreement with Lighthouse, so the report groups them. Every cause named here is
 * explained, with its source, in docs/checks.md ("Where pagegrade and Lighthouse differ"); a disagreement that
 * fits none is "unexplained" and deserves a look.
 */
import type { CheckResults } from "../src/analysis/judge.js";

type Verdict = "pass" | "fail";

/** A generic link text followed by decoration (…, ›, », >, :, !) that pagegrade reads past. */
const decoratedText = /[.…:!›»→>]\s*$/u;

export function causeOf(audit: string, pagegrade: Verdict, html: string, results: CheckResults): string {
  const items = (id: string) => results[id]?.details?.items ?? [];
  switch (audit) {
    case "crawlable-anchors":
      if (pagegrade === "fail" && items("crawlable-links").some((item) => item.problem === "javascript: URL"))
        return "javascript: links: Google documents them as uncrawlable, Lighthouse flags only javascript:void(0)";
      break;
    case "link-text":
      if (pagegrade === "fail") {
        const texts = items("link-text").map((item) => String(item.text));
        if (texts.some((text) => decoratedText.test(text)))
          return "generic link text with trailing decoration (“More >”, “Read more…”): pagegrade reads past it";
        const lang = /<html\b[^>]*\blang\s*=\s*["']?([a-z]+)/i.exec(html)?.[1]?.toLowerCase() ?? "";
        if (
          !["", "en", "fr", "de", "es", "it", "pt", "nl"].includes(lang) ||
          texts.every((text) => !/^(read more|more|learn more|see more|en savoir plus)$/i.test(text))
        )
          return "generic link text on pagegrade's list only, or outside the language Lighthouse detected";
      }
      break;
    case "document-title":
      if (pagegrade === "fail" && results.title?.message.includes("<title> elements"))
        return "more than one <title>: the HTML standard allows one, Lighthouse reads the first";
      break;
    case "meta-description":
      if (pagegrade === "fail" && results["meta-description"]?.message.includes("meta descriptions"))
        return "more than one meta description: the HTML standard allows one, Lighthouse reads the first";
      break;
  }
  if (runsScripts(html)) return "JavaScript: Lighthouse judged the page its scripts rendered";
  if (audit === "link-text" && pagegrade === "fail")
    return "a generic text Lighthouse did not see: hidden by a stylesheet, which raw mode does not apply";
  if (audit === "link-text" && pagegrade === "pass")
    return "Lighthouse flags a link text not identified in the raw HTML (its rendered innerText differs)";
  return "unexplained";
}

/** Whether the page still carries scripts a browser runs (most corpus pages had theirs stripped). */
function runsScripts(html: string): boolean {
  for (const match of html.matchAll(/<script\b([^>]*)>/gi)) {
    const type = /\btype\s*=\s*["']?([^"'\s>]+)/i.exec(match[1] ?? "")?.[1]?.toLowerCase();
    if (type === undefined || type === "" || type.includes("javascript") || type === "module") return true;
  }
  return false;
}
