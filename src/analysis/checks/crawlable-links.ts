/**
 * crawlable-links: every link is something a crawler can follow. Google follows only <a> elements with an href
 * that holds a URL; a javascript: URL, an href that is not a URL, or an <a> meant as a link but given no href
 * (script navigates instead) leave it nothing to follow. An empty href is a valid URL: it names the page itself.
 */
import { type CheckDefinition, every, outcome, plural } from "./check.js";

export const crawlableLinks: CheckDefinition = {
  id: "crawlable-links",
  category: "seo",
  importance: "medium",
  title: "Crawlable links",
  description: "Every link has an href a crawler can follow: present, not javascript:, and a valid URL.",
  howToFix:
    "Give each link a real URL in href; handle clicks in script on top of it rather than instead of it. Use <button> for actions.",
  run(page) {
    const { anchors, hreflessLinks } = page.document;
    const total = anchors.length + hreflessLinks.length;
    if (total === 0) return outcome.na("The page has no links.");
    const broken = [
      ...hreflessLinks.map((link) => ({
        href: null,
        text: null,
        problem: "no href, though the element is used as a link",
        html: link.html,
      })),
      // An anchor's start tag is rendered only when it is shown as evidence.
      ...anchors.flatMap((anchor) => {
        const problem = problemOf(anchor.rawHref ?? "", anchor.href);
        return problem === null
          ? []
          : [{ href: anchor.rawHref, text: anchor.text, problem, html: anchor.html }];
      }),
    ];
    if (broken.length > 0) {
      return outcome.fail(
        `${plural(broken.length, "link")} cannot be crawled (${broken[0]?.problem}).`,
        broken.length,
        broken,
      );
    }
    return outcome.pass(`${every(total, "link")} can be crawled.`, 0);
  },
};

function problemOf(raw: string, resolved: string | null): string | null {
  const href = raw.trim();
  if (/^javascript:/i.test(href)) return "javascript: URL";
  // The empty string is a valid URL (the page itself); only an href that does not parse is no URL at all.
  if (href !== "" && resolved === null) return "not a valid URL";
  return null;
}
