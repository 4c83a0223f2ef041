/** crawlable-links: every <a href> is something a crawler can follow. */
import { type CheckDefinition, every, outcome, plural } from "./check.js";

export const crawlableLinks: CheckDefinition = {
  id: "crawlable-links",
  category: "seo",
  importance: "medium",
  title: "Crawlable links",
  description: "Every link has an href a crawler can follow: not empty, not javascript:, and a valid URL.",
  howToFix:
    "Give each link a real URL in href; handle clicks in script on top of it rather than instead of it. Use <button> for actions.",
  run(page) {
    const anchors = page.document.anchors;
    if (anchors.length === 0) return outcome.na("The page has no links.");
    const broken = anchors
      .map((anchor) => ({ anchor, problem: problemOf(anchor.rawHref ?? "", anchor.href) }))
      .filter((entry) => entry.problem !== null);
    if (broken.length > 0) {
      return outcome.fail(
        `${plural(broken.length, "link")} cannot be crawled (${broken[0]?.problem}).`,
        broken.length,
        broken.map(({ anchor, problem }) => ({
          href: anchor.rawHref,
          text: anchor.text,
          problem,
          html: anchor.html,
        })),
      );
    }
    return outcome.pass(`${every(anchors.length, "link")} can be crawled.`, 0);
  },
};

function problemOf(raw: string, resolved: string | null): string | null {
  const href = raw.trim();
  if (href === "") return "empty href";
  if (/^javascript:/i.test(href)) return "javascript: URL";
  if (resolved === null) return "not a valid URL";
  return null;
}
