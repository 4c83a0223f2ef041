/**
 * canonical: one valid, absolute canonical URL, from a <link> element or the Link header. A canonical link with
 * an empty or missing href names nothing, and search engines (and Lighthouse) ignore it: a broken tag worth a
 * warning, judged apart from the canonicals that do name a URL.
 */
import { parseLinkHeader, relTokens } from "../link-header.js";
import { type CheckDefinition, type CheckOutcome, outcome, plural, verb } from "./check.js";

export const canonical: CheckDefinition = {
  id: "canonical",
  category: "seo",
  importance: "medium",
  title: "Canonical URL",
  description:
    "The page names its preferred address with one absolute canonical URL, so duplicates consolidate to it.",
  howToFix:
    'Add <link rel="canonical" href="https://…"> with the full, absolute URL of the page\'s preferred version, once; do not point every page at the home page. Remove a canonical link whose href is empty, or give it that URL.',
  run(page) {
    const declared = [
      ...page.document.links
        .filter((link) => link.rel.includes("canonical"))
        .map((link) => ({ raw: link.rawHref ?? "", source: link.html })),
      ...parseLinkHeader(page.response.headers.link)
        .filter((link) => relTokens(link).includes("canonical"))
        .map((link) => ({ raw: link.target, source: `Link: <${link.target}>; rel="canonical"` })),
    ];
    if (declared.length === 0) return outcome.warn("The page declares no canonical URL.", null);

    const empty = declared.filter((entry) => entry.raw.trim() === "");
    const named = declared.filter((entry) => entry.raw.trim() !== "");
    const emptyEvidence = empty.map((entry) => ({ href: entry.raw, source: entry.source }));
    if (named.length === 0) {
      return outcome.warn(
        empty.length === 1
          ? "The canonical link names no URL (its href is empty or missing), so search engines ignore it; give it the page's absolute URL or remove it."
          : `${plural(empty.length, "canonical link")} name no URL (their href is empty or missing), so search engines ignore them; keep one with the page's absolute URL.`,
        null,
        emptyEvidence,
      );
    }
    const verdict = judgeNamed(named, page.finalUrl);
    if (verdict.status !== "pass" || empty.length === 0) return verdict;
    return outcome.warn(
      `The canonical URL is ${verdict.value}, but ${plural(empty.length, "more canonical link")} ${verb(empty.length, "names", "name")} no URL (the href is empty or missing); remove ${verb(empty.length, "it", "them")}.`,
      verdict.value,
      emptyEvidence,
    );
  },
};

/** The verdict on the canonicals that name a URL: absolute, valid, agreeing, and not the root for an inner page. */
function judgeNamed(declared: { raw: string; source: string }[], finalUrl: string): CheckOutcome {
  const relative = declared.filter((entry) => !/^[a-z][a-z0-9+.-]*:/i.test(entry.raw.trim()));
  if (relative.length > 0) {
    return outcome.fail(
      `The canonical URL "${relative[0]?.raw}" is relative; it must be absolute.`,
      relative[0]?.raw,
      relative.map((entry) => ({ href: entry.raw, source: entry.source })),
    );
  }
  const parsed = declared.map((entry) => ({ ...entry, url: parseHttpUrl(entry.raw) }));
  const invalid = parsed.filter((entry) => entry.url === null);
  if (invalid.length > 0) {
    return outcome.fail(
      `The canonical URL "${invalid[0]?.raw}" is not a valid http(s) URL.`,
      invalid[0]?.raw,
      invalid.map((entry) => ({ href: entry.raw, source: entry.source })),
    );
  }
  const distinct = [...new Set(parsed.map((entry) => entry.url?.href))];
  if (distinct.length > 1) {
    return outcome.fail(
      `The page declares ${distinct.length} different canonical URLs.`,
      distinct,
      parsed.map((entry) => ({ href: entry.url?.href ?? entry.raw, source: entry.source })),
    );
  }
  const target = parsed[0]?.url as URL;
  const pagePath = new URL(finalUrl).pathname;
  if (pagePath !== "/" && target.pathname === "/" && target.search === "") {
    return outcome.fail(
      `This inner page names the site root (${target.href}) as its canonical URL.`,
      target.href,
      [{ href: target.href, page: finalUrl }],
    );
  }
  return outcome.pass(`The canonical URL is ${target.href}.`, target.href);
}

function parseHttpUrl(raw: string): URL | null {
  try {
    const url = new URL(raw.trim());
    return url.protocol === "http:" || url.protocol === "https:" ? url : null;
  } catch {
    return null;
  }
}
