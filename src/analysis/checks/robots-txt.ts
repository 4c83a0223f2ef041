/** robots-txt: robots.txt lets the major crawlers fetch the page. */
import { majorCrawlers, readRobots } from "../page-facts.js";
import { type CheckDefinition, outcome } from "./check.js";

export const robotsTxt: CheckDefinition = {
  id: "robots-txt",
  category: "seo",
  importance: "high",
  title: "robots.txt",
  description: "robots.txt allows Googlebot, Bingbot and all other crawlers (*) to fetch this page.",
  howToFix:
    "Remove or narrow the Disallow rule that matches this page in /robots.txt, or add an Allow rule with a longer, more specific pattern. Make sure robots.txt itself never answers with a server error.",
  needs: ["robotsTxt"],
  run(page) {
    const verdict = readRobots(page);
    switch (verdict.kind) {
      case "missing":
        return outcome.pass(
          `There is no robots.txt (HTTP ${verdict.status}), so every crawler may fetch the page.`,
          null,
        );
      case "server-error":
        return outcome.fail(
          `robots.txt answers HTTP ${verdict.status}; crawlers treat that as "do not crawl the site".`,
          verdict.status,
        );
      case "rules": {
        const blocked = majorCrawlers.filter((crawler) => !verdict.allowed[crawler]);
        const items = blocked.map((crawler) => ({ user_agent: crawler, allowed: false }));
        if (blocked.length === majorCrawlers.length) {
          return outcome.fail(
            "robots.txt disallows this page for Googlebot, Bingbot and all crawlers.",
            verdict.allowed,
            items,
          );
        }
        if (blocked.length > 0) {
          return outcome.warn(
            `robots.txt disallows this page for ${blocked.join(", ")}.`,
            verdict.allowed,
            items,
          );
        }
        return outcome.pass(
          "robots.txt allows Googlebot, Bingbot and all crawlers to fetch this page.",
          verdict.allowed,
        );
      }
    }
  },
};
