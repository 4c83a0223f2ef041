/**
 * rendering-changes (rendered mode): scripts leave the SEO signals of the served HTML alone. A search engine
 * that renders and one that does not (or renders late) must read the same title, robots directives, canonical
 * and hreflang; text and links that exist only after scripts run are missed by crawlers that do not run them.
 */

import type { DocumentFacts, RenderedFactsSnapshot } from "../snapshot.js";
import { countWords } from "../text/words.js";
import { type CheckDefinition, type EvidenceItem, outcome, plural } from "./check.js";

/** Links listed at most, of those only the rendered page has. */
const listedLinks = 20;

export const renderingChanges: CheckDefinition = {
  id: "rendering-changes",
  category: "seo",
  importance: "high",
  title: "Changes made by JavaScript",
  description:
    "The title, robots directives, canonical and hreflang are the same in the served HTML and after scripts run, and the content does not depend on scripts.",
  howToFix:
    "Put the title, meta robots, canonical and hreflang in the HTML the server sends and do not change them with scripts; render important text and links on the server (server-side rendering or pre-rendering).",
  needs: ["rendered"],
  run(page, { scriptAddedText }) {
    const raw = (page.rendered as RenderedFactsSnapshot).rawDocument;
    const rendered = page.document;
    const conflicts: EvidenceItem[] = [];
    for (const [fact, read] of signals) {
      const before = read(raw);
      const after = read(rendered);
      if (before !== after) conflicts.push({ fact, raw: before || null, rendered: after || null });
    }
    if (conflicts.length > 0) {
      return outcome.fail(
        `Scripts change ${conflicts.map((item) => item.fact).join(", ")}: crawlers that read the served HTML see different signals.`,
        conflicts.length,
        conflicts,
      );
    }
    const rawLinks = new Set(linkTargets(raw));
    const addedLinks = [...new Set(linkTargets(rendered))].filter((href) => !rawLinks.has(href));
    const rawWords = countWords(raw.text);
    const renderedWords = countWords(rendered.text);
    const addedWords = renderedWords - rawWords;
    const muchText =
      addedWords >= scriptAddedText.minWords && addedWords >= renderedWords * scriptAddedText.minShare;
    if (addedLinks.length === 0 && !muchText) {
      return outcome.pass(
        "Scripts leave the title, robots, canonical, hreflang, text and links as served.",
        0,
      );
    }
    const parts = [
      ...(muchText
        ? [`${plural(addedWords, "word")} of text (${rawWords} served, ${renderedWords} rendered)`]
        : []),
      ...(addedLinks.length > 0 ? [plural(addedLinks.length, "link")] : []),
    ];
    const items: EvidenceItem[] = [
      ...(muchText ? [{ fact: "words", raw: rawWords, rendered: renderedWords }] : []),
      ...addedLinks.slice(0, listedLinks).map((href) => ({ fact: "link", raw: null, rendered: href })),
    ];
    return outcome.warn(
      `Scripts add ${parts.join(" and ")} that crawlers which do not run JavaScript miss.`,
      addedLinks.length,
      items,
    );
  },
};

const signals: Array<[string, (document: DocumentFacts) => string]> = [
  ["title", (document) => (document.titles[0] ?? "").replace(/\s+/g, " ").trim()],
  [
    "meta robots",
    (document) =>
      document.metas
        .filter((meta) => meta.inHead && ["robots", "googlebot"].includes((meta.name ?? "").toLowerCase()))
        .map((meta) => `${(meta.name ?? "").toLowerCase()}: ${(meta.content ?? "").trim().toLowerCase()}`)
        .join("; "),
  ],
  [
    "canonical",
    (document) =>
      document.links
        .filter((link) => link.inHead && link.rel.includes("canonical"))
        .map((link) => link.href ?? "")
        .join(" "),
  ],
  [
    "hreflang",
    (document) =>
      document.links
        .filter((link) => link.inHead && link.rel.includes("alternate") && link.hreflang)
        .map((link) => `${(link.hreflang ?? "").toLowerCase()} ${link.href ?? ""}`)
        .sort()
        .join(", "),
  ],
];

/** Where the document's visible links go (fragments of the same page aside). */
function linkTargets(document: DocumentFacts): string[] {
  return document.anchors
    .filter((anchor) => anchor.href !== null && !anchor.hidden && /^https?:/.test(anchor.href))
    .map((anchor) => (anchor.href as string).replace(/#.*$/, ""));
}
