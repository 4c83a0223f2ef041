/** cross-origin-links: external links that open a new tab cannot reach back into the page. */
import { isInternal, siteHost } from "../page-facts.js";
import { type CheckDefinition, every, outcome, plural, verb } from "./check.js";

export const crossOriginLinks: CheckDefinition = {
  id: "cross-origin-links",
  category: "security",
  importance: "low",
  title: "Links opening new tabs",
  description:
    'External links with target="_blank" carry rel="noopener" or "noreferrer", so the opened page cannot control this one.',
  howToFix:
    'Add rel="noopener" (or "noopener noreferrer") to links with target="_blank" that leave the site.',
  run(page) {
    const site = siteHost(page.finalUrl);
    const external = page.document.anchors.filter(
      (anchor) =>
        anchor.target?.toLowerCase() === "_blank" &&
        anchor.href !== null &&
        /^https?:/.test(anchor.href) &&
        !isInternal(anchor.href, site),
    );
    if (external.length === 0) return outcome.na("No external link opens a new tab.");
    const unsafe = external.filter(
      (anchor) => !anchor.rel.includes("noopener") && !anchor.rel.includes("noreferrer"),
    );
    if (unsafe.length > 0) {
      return outcome.warn(
        `${unsafe.length} of ${plural(external.length, "external link")} opening a new tab ${verb(unsafe.length, "lacks", "lack")} rel="noopener".`,
        unsafe.length,
        unsafe.map((anchor) => ({ href: anchor.href, html: anchor.html })),
      );
    }
    return outcome.pass(
      `${every(external.length, "external link")} opening a new tab ${verb(external.length, "uses", "use")} noopener.`,
      0,
    );
  },
};
