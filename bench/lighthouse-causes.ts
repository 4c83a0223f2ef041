/**
 * Names the cause of a disagreement with Lighthouse, and only with evidence found on the page. Every cause is
 * checked against the page as Chromium shows it (lighthouse-probe.ts) under Lighthouse's own rules
 * (lighthouse-rules.ts): first that those rules reproduce Lighthouse's recorded verdict here, then which element
 * makes the two tools differ and why (its attribute, its rendered text, the element whose style hides it, the
 * text pagegrade read). A disagreement where either step fails is "unexplained", with what was found. The causes
 * pagegrade keeps on purpose are explained, with their sources, in docs/checks.md ("Where pagegrade and
 * Lighthouse differ").
 */
import type { CheckResults } from "../src/analysis/judge.js";
import type { Anchor } from "../src/analysis/snapshot.js";
import type { PageFacts, ProbedAnchor } from "./lighthouse-probe.js";
import type { LighthouseRules } from "./lighthouse-rules.js";

type Verdict = "pass" | "fail";

export interface Disagreement {
  audit: string;
  lighthouse: Verdict;
  pagegrade: Verdict;
  finalUrl: string;
  /** pagegrade's results in the mode compared, and its links there. */
  results: CheckResults;
  anchors: Anchor[];
  /** In rendered mode, raw mode's results for the same page (null in raw mode). */
  rawResults: CheckResults | null;
  /** The page as Chromium showed it here, or why it could not be read. */
  facts: PageFacts | { error: string };
}

export interface Explanation {
  cause: string;
  evidence: string[];
}

export const unexplained = "unexplained";

/** Evidence lines per disagreement at most. */
const maxEvidence = 6;

/** What pagegrade strips after a generic word before its lookup (link-text.ts). */
const decoration = /[.…:!›»→>\s]+$/u;

export function explain(entry: Disagreement, rules: LighthouseRules): Explanation {
  const { facts } = entry;
  if ("error" in facts)
    return { cause: unexplained, evidence: [`Chromium could not read the page: ${facts.error}`] };
  const reproduced = rules.verdict(entry.audit, facts, entry.finalUrl);
  if (reproduced !== entry.lighthouse) {
    return {
      cause: unexplained,
      evidence: [
        `Lighthouse's rule on the page as Chromium showed it here says ${reproduced}, its recorded verdict ${entry.lighthouse}`,
        ...rawModeLine(entry),
      ],
    };
  }
  const found = findCause(entry, facts, rules);
  if (found === null) return { cause: unexplained, evidence: rawModeLine(entry) };
  return { cause: found.cause, evidence: [...found.evidence.slice(0, maxEvidence), ...rawModeLine(entry)] };
}

function findCause(entry: Disagreement, facts: PageFacts, rules: LighthouseRules): Explanation | null {
  const key = `${entry.audit} ${entry.pagegrade === "fail" ? "pagegrade fails" : "Lighthouse fails"}`;
  switch (key) {
    case "crawlable-anchors pagegrade fails":
      return crawlableOnlyForPagegrade(entry, facts, rules);
    case "crawlable-anchors Lighthouse fails":
      return crawlableOnlyForLighthouse(entry, rules.crawlableAnchors(facts, entry.finalUrl));
    case "link-text pagegrade fails":
      return linkTextOnlyForPagegrade(entry, facts);
    case "link-text Lighthouse fails":
      return linkTextOnlyForLighthouse(entry, rules.linkText(facts, entry.finalUrl));
    case "meta-description pagegrade fails":
    case "meta-description Lighthouse fails":
      return metaDescription(entry, facts);
    case "document-title pagegrade fails":
    case "document-title Lighthouse fails":
      return documentTitle(entry, facts);
    default:
      return null;
  }
}

/** Every element found must have its reason named; one without leaves the disagreement unexplained. */
function combine(reasons: Array<{ reason: string | null; evidence: string }>): Explanation | null {
  if (reasons.length === 0) return null;
  const evidence = reasons.map((entry) => entry.evidence);
  if (reasons.some((entry) => entry.reason === null)) return { cause: unexplained, evidence };
  const names = [...new Set(reasons.map((entry) => entry.reason as string))].sort();
  return { cause: names.join(" + "), evidence };
}

// ---- crawlable-anchors ---------------------------------------------------------------------------------------

const javaScriptVoid = /javascript:void(\(|)0(\)|)/;

function crawlableOnlyForPagegrade(entry: Disagreement, facts: PageFacts, rules: LighthouseRules) {
  const failing = new Set(rules.crawlableAnchors(facts, entry.finalUrl));
  const items = entry.results["crawlable-links"]?.details?.items ?? [];
  return combine(
    items.map((item) => {
      const html = String(item.html ?? "");
      const anchor = item.href === null ? hreflessMatch(facts, html) : hrefMatch(facts, String(item.href));
      if (!anchor) return { reason: null, evidence: `${html}: not in the page as Chromium showed it` };
      if (failing.has(anchor))
        return { reason: null, evidence: `${anchor.html}: Lighthouse's rule fails it too` };
      const raw = anchor.rawHref.replace(/\s/g, "");
      if (anchor.hasHref && /^javascript:/i.test(raw) && !javaScriptVoid.test(raw))
        return {
          reason: "a javascript: URL other than javascript:void(0): Lighthouse flags only that one",
          evidence: `${anchor.html}`,
        };
      if (!anchor.hasHref && anchor.role.trim() !== "")
        return {
          reason: "an <a> without href but with a role: Lighthouse skips any <a> with a role",
          evidence: `${anchor.html} (role="${anchor.role}")`,
        };
      if (!anchor.hasHref && anchor.id !== "")
        return {
          reason: "an <a> without href but with an id: Lighthouse takes it for a fragment target",
          evidence: `${anchor.html} (id="${anchor.id}", though ${String(item.problem)})`,
        };
      return {
        reason: null,
        evidence: `${anchor.html}: Lighthouse's rule passes it for a reason not named here`,
      };
    }),
  );
}

function crawlableOnlyForLighthouse(entry: Disagreement, failing: ProbedAnchor[]) {
  return combine(
    failing.map((anchor) => {
      const raw = anchor.rawHref.replace(/\s/g, "");
      if (!anchor.hasHref && anchor.listeners.length + anchor.ancestorListeners.length > 0) {
        const types = [
          ...new Set([...anchor.listeners, ...anchor.ancestorListeners].map((item) => item.type)),
        ];
        return {
          reason:
            "an <a> without href under an event listener a script added: Lighthouse counts it as a link, pagegrade reads no listeners",
          evidence: `${anchor.html} (listeners on it or its ancestors: ${types.slice(0, 5).join(", ")})`,
        };
      }
      if (raw.startsWith("file:"))
        return { reason: "a file: URL: Lighthouse flags it", evidence: `${anchor.html}` };
      const ours = entry.anchors.find((candidate) => candidate.rawHref === anchor.rawHref);
      if (!ours && anchor.hasHref)
        return {
          reason: "a link pagegrade's document does not have",
          evidence: `${anchor.html} (not among pagegrade's ${entry.anchors.length} links)`,
        };
      return { reason: null, evidence: `${anchor.html}: Lighthouse fails it, pagegrade passes it` };
    }),
  );
}

/** The probed anchor with this resolved or raw href. */
function hrefMatch(facts: PageFacts, href: string): ProbedAnchor | undefined {
  return facts.anchors.find((anchor) => anchor.hasHref && (anchor.rawHref === href || anchor.href === href));
}

/** The probed <a> without href whose start tag pagegrade quoted (by id, else by the tag itself). */
function hreflessMatch(facts: PageFacts, html: string): ProbedAnchor | undefined {
  const id = /\bid="([^"]*)"/.exec(html)?.[1];
  const candidates = facts.anchors.filter((anchor) => !anchor.hasHref);
  if (id !== undefined) return candidates.find((anchor) => anchor.id === id);
  const start = html.replace(/…?>$/, "");
  return candidates.find(
    (anchor) => anchor.html.startsWith(start) || start.startsWith(anchor.html.slice(0, -1)),
  );
}

// ---- link-text -----------------------------------------------------------------------------------------------

const normalise = (text: string) => text.replace(/\s+/g, " ").trim().toLowerCase();

/** The title attribute in a start tag as the probe quotes it ("" when none). */
const titleOf = (html: string) => /\btitle="([^"]*)"/.exec(html)?.[1] ?? "";

function linkTextOnlyForPagegrade(entry: Disagreement, facts: PageFacts) {
  const items = entry.results["link-text"]?.details?.items ?? [];
  return combine(
    items.map((item) => {
      const text = String(item.text);
      const candidates = facts.anchors.filter((anchor) => anchor.href === item.href);
      // The link itself: same destination and the same text, as pagegrade read it or as Chromium renders it.
      const anchor = candidates.find((candidate) =>
        [candidate.textContent, candidate.renderedText, titleOf(candidate.html)].some(
          (candidateText) => normalise(candidateText) === normalise(text),
        ),
      );
      const misread = new TextDecoder("windows-1252").decode(Buffer.from(text));
      const decodedElse = candidates.find(
        (candidate) => normalise(candidate.textContent) === normalise(misread),
      );
      if (!anchor && decodedElse)
        return {
          reason:
            "a page without a declared charset: Chromium decodes it as windows-1252, pagegrade as UTF-8, so the texts differ",
          evidence: `${decodedElse.html} "${text}": Chromium's text "${decodedElse.textContent.trim()}"`,
        };
      if (!anchor)
        return {
          reason: null,
          evidence: `"${text}" → ${item.href}: no link with that text in the page as Chromium showed it (${candidates.length} to that address)`,
        };
      const shown = `${anchor.html} "${text}"`;
      if (anchor.hiddenBy !== null)
        return {
          reason: "a generic text a stylesheet hides: Lighthouse reads innerText, which leaves it out",
          evidence: `${shown} hidden by ${anchor.hiddenBy}`,
        };
      const inner = normalise(anchor.renderedText);
      if (inner !== normalise(text))
        return {
          reason: "a generic text that is not the link's rendered text (Lighthouse reads innerText)",
          evidence: `${shown}: innerText "${anchor.renderedText.trim().slice(0, 80)}"`,
        };
      if (inner.replace(decoration, "") !== inner)
        return {
          reason: "a generic text with trailing decoration (“More >”, “Read more…”): pagegrade reads past it",
          evidence: `${shown}`,
        };
      return {
        reason: `a generic text on pagegrade's list, not on Lighthouse's list for the page's language`,
        evidence: `${shown} (language Lighthouse detects: ${anchor.textLang ?? "none, so every list"})`,
      };
    }),
  );
}

function isFullUrl(text: string): boolean {
  try {
    return ["http:", "https:"].includes(new URL(text).protocol);
  } catch {
    return false;
  }
}

function linkTextOnlyForLighthouse(
  entry: Disagreement,
  failing: Array<{ href: string; text: string; textLang?: string }>,
) {
  return combine(
    failing.map((item) => {
      const shown = `"${item.text}" → ${item.href} (language ${item.textLang ?? "none"})`;
      if (isFullUrl(item.text.trim()))
        return { reason: "a URL as link text: Lighthouse flags it, pagegrade does not", evidence: shown };
      const ours = entry.anchors.filter((anchor) => anchor.href === item.href);
      if (ours.length === 0)
        return {
          reason: "a link pagegrade's document does not have",
          evidence: `${shown}: not among pagegrade's links`,
        };
      const same = ours.find((anchor) => normalise(anchor.text) === normalise(item.text));
      if (!same) {
        const texts = ours.map((anchor) => `"${anchor.text.slice(0, 60)}"`).join(", ");
        return {
          reason: "a link whose rendered text (innerText) differs from the text pagegrade reads",
          evidence: `${shown}: pagegrade reads ${texts}`,
        };
      }
      if (same.hidden)
        return {
          reason:
            "a link the markup hides (hidden, inline display:none) that Chromium renders: a script or an !important rule shows it",
          evidence: `${shown}: pagegrade reads ${same.html} inside a hidden element; Chromium renders its text`,
        };
      return {
        reason: "a generic text on Lighthouse's list, not on pagegrade's",
        evidence: shown,
      };
    }),
  );
}

// ---- meta-description and document-title ---------------------------------------------------------------------

function metaDescription(entry: Disagreement, facts: PageFacts): Explanation | null {
  const inHead = facts.metaDescriptions.filter((meta) => meta.inHead);
  const ours = entry.results["meta-description"];
  if (entry.pagegrade === "fail" && inHead.length > 1 && ours?.message.includes("meta descriptions"))
    return {
      cause: "more than one meta description: the HTML standard allows one, Lighthouse reads the first",
      evidence: inHead.map(
        (meta) => `<meta name="description" content="${(meta.content ?? "").slice(0, 80)}">`,
      ),
    };
  if (entry.pagegrade === "pass" && (inHead[0]?.content ?? "").trim() === "") {
    const where =
      inHead.length === 0 ? "no meta description in Chromium's <head>" : "an empty first description";
    return {
      cause: "a meta description the page's scripts remove or empty",
      evidence: [`Chromium shows ${where}; pagegrade read: ${ours?.message}`],
    };
  }
  return null;
}

function documentTitle(entry: Disagreement, facts: PageFacts): Explanation | null {
  if (entry.pagegrade === "fail" && facts.titles.length > 1 && facts.documentTitle.trim() !== "")
    return {
      cause: "more than one <title>: the HTML standard allows one, Lighthouse reads the first",
      evidence: facts.titles.map((title) => `<title>${title.slice(0, 80)}</title>`),
    };
  return null;
}

/** In rendered mode, what raw mode said of the same audit's checks: how much rendering changed. */
function rawModeLine(entry: Disagreement): string[] {
  if (!entry.rawResults) return [];
  const ids: Record<string, string> = {
    "document-title": "title",
    "crawlable-anchors": "crawlable-links",
  };
  const id = ids[entry.audit] ?? entry.audit;
  const raw = entry.rawResults[id];
  const rendered = entry.results[id];
  if (!raw || !rendered) return [];
  return raw.status === rendered.status
    ? [`raw mode says the same (${raw.status})`]
    : [`raw mode: ${raw.status} — ${raw.message}`];
}
