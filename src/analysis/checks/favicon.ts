/** favicon: the site has an icon for tabs, bookmarks and search results. */
import { answerOf } from "../page-facts.js";
import { type CheckDefinition, outcome } from "./check.js";

export const favicon: CheckDefinition = {
  id: "favicon",
  category: "seo",
  importance: "medium",
  title: "Favicon",
  description: "The page declares an icon, or /favicon.ico serves one; browsers and search results show it.",
  howToFix:
    'Add <link rel="icon" href="/icon.svg" type="image/svg+xml"> (or a PNG), or serve an icon at /favicon.ico.',
  needs: ["favicon"],
  run(page) {
    const declared = page.document.links.find(
      (link) => link.rel.includes("icon") || link.rel.includes("apple-touch-icon"),
    );
    if (declared)
      return outcome.pass(`The page declares an icon (${declared.href ?? declared.rawHref}).`, declared.href);
    const answer = answerOf(page.probes.favicon);
    if (
      answer.status === 200 &&
      (answer.mediaType.startsWith("image/") || answer.mediaType === "application/octet-stream")
    ) {
      return outcome.pass("/favicon.ico serves an icon.", answer.url);
    }
    return outcome.fail(
      `The page declares no icon and /favicon.ico answers HTTP ${answer.status}${answer.mediaType ? ` (${answer.mediaType})` : ""}.`,
      null,
      [{ url: answer.url, status: answer.status, content_type: answer.mediaType }],
    );
  },
};
