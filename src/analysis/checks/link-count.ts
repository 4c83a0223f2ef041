/** link-count: the page does not drown its important links among too many others. */
import { isInternal, siteHost } from "../page-facts.js";
import { type CheckDefinition, outcome } from "./check.js";

export const linkCount: CheckDefinition = {
  id: "link-count",
  category: "seo",
  importance: "medium",
  title: "Number of links",
  description:
    "The page has a reasonable number of links, so each passes on value and visitors can find their way.",
  howToFix:
    "Trim navigation, footers and link lists to the links visitors need; move long lists to their own pages.",
  run(page, { maxLinks }) {
    const site = siteHost(page.finalUrl);
    let internal = 0;
    let external = 0;
    let nofollow = 0;
    for (const anchor of page.document.anchors) {
      if (anchor.href === null || !/^https?:/.test(anchor.href)) continue;
      if (isInternal(anchor.href, site)) internal++;
      else external++;
      if (anchor.rel.includes("nofollow")) nofollow++;
    }
    const total = internal + external;
    const value = { total, internal, external, nofollow };
    if (total > maxLinks) {
      return outcome.warn(
        `The page has ${total} links, more than ${maxLinks} (${internal} internal, ${external} external).`,
        value,
      );
    }
    return outcome.pass(`The page has ${total} links (${internal} internal, ${external} external).`, value);
  },
};
