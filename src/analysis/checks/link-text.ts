/**
 * link-text: followed links to other pages say where they lead instead of "click here". Anchor text tells
 * readers and search engines about the page linked to (Google Search Central, link best practices); a link to
 * a place on the same page, or one inside an element the browser does not render, shows no one a destination.
 */
import { type CheckDefinition, every, outcome, plural, verb } from "./check.js";

/** Link texts that describe nothing, in the languages pagegrade knows best. Compared lower-cased, trimmed. */
const genericTexts = new Set([
  // English
  "click here",
  "click",
  "here",
  "more",
  "read more",
  "learn more",
  "more info",
  "information",
  "more information",
  "link",
  "this",
  "this link",
  "go",
  "start",
  "right here",
  "details",
  "continue",
  "continue reading",
  "see more",
  // French
  "cliquez ici",
  "ici",
  "plus",
  "en savoir plus",
  "lire la suite",
  "suite",
  "voir plus",
  "lien",
  // German
  "hier klicken",
  "hier",
  "mehr",
  "weiterlesen",
  "mehr erfahren",
  "weiter",
  "mehr lesen",
  "link",
  // Spanish
  "haga clic aquí",
  "haz clic aquí",
  "aquí",
  "más",
  "leer más",
  "más información",
  "ver más",
  "enlace",
  // Italian
  "clicca qui",
  "qui",
  "di più",
  "leggi di più",
  "altro",
  "scopri di più",
  "continua",
  // Portuguese
  "clique aqui",
  "aqui",
  "mais",
  "leia mais",
  "saiba mais",
  "ver mais",
  // Japanese
  "リンク",
  "ここをクリック",
  "続きを読む",
  // Dutch
  "klik hier",
  "meer",
  "lees meer",
  "meer info",
  "verder lezen",
]);

/** Longer texts cannot be generic (with room for trailing punctuation), so they are not looked up. */
const longestGenericText = Math.max(...[...genericTexts].map((text) => text.length)) + 4;

export const linkText: CheckDefinition = {
  id: "link-text",
  category: "seo",
  importance: "medium",
  title: "Descriptive link text",
  description:
    'Links that search engines follow say where they lead; "click here" or "read more" tells them nothing.',
  howToFix:
    'Replace generic link texts with words that name the destination ("pricing for teams" rather than "click here").',
  run(page) {
    const samePage = withoutFragment(page.finalUrl);
    const followed = page.document.anchors.filter(
      (anchor) =>
        anchor.href !== null &&
        /^https?:/.test(anchor.href) &&
        !anchor.rel.includes("nofollow") &&
        !anchor.hidden &&
        withoutFragment(anchor.href) !== samePage,
    );
    if (followed.length === 0) return outcome.na("The page has no visible followed links to other pages.");
    const generic = followed.filter(
      (anchor) =>
        anchor.text.length <= longestGenericText &&
        genericTexts.has(
          anchor.text
            .toLowerCase()
            .replace(/[.…:!›»→>\s]+$/u, "")
            .trim(),
        ),
    );
    if (generic.length > 0) {
      return outcome.warn(
        `${plural(generic.length, "link")} ${verb(generic.length, "uses", "use")} generic text such as "${generic[0]?.text}".`,
        generic.length,
        generic.map((anchor) => ({ text: anchor.text, href: anchor.href })),
      );
    }
    return outcome.pass(
      `${every(followed.length, "followed link")} ${verb(followed.length, "has", "have")} descriptive text.`,
      0,
    );
  },
};

function withoutFragment(url: string): string {
  const hash = url.indexOf("#");
  return hash === -1 ? url : url.slice(0, hash);
}
