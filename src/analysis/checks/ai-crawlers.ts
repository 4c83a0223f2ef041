/** ai-crawlers: which AI crawlers robots.txt lets fetch the page (reported, never scored). */
import { readRobots } from "../page-facts.js";
import { type CheckDefinition, outcome } from "./check.js";

const aiCrawlers = ["GPTBot", "ClaudeBot", "PerplexityBot", "OAI-SearchBot", "Google-Extended", "CCBot"];

export const aiCrawlersCheck: CheckDefinition = {
  id: "ai-crawlers",
  category: "miscellaneous",
  importance: "info",
  title: "AI crawlers",
  description:
    "Which AI crawlers robots.txt allows to fetch this page: a choice for the site owner, reported for information.",
  howToFix:
    "Allow or disallow each AI crawler by name in robots.txt (User-agent: GPTBot / Disallow: /), as you see fit.",
  needs: ["robotsTxt"],
  run(page) {
    const verdict = readRobots(page, aiCrawlers);
    if (verdict.kind !== "rules") {
      const all = Object.fromEntries(aiCrawlers.map((crawler) => [crawler, verdict.kind === "missing"]));
      return outcome.info(
        verdict.kind === "missing"
          ? "There is no robots.txt, so every AI crawler may fetch the page."
          : "robots.txt answers with a server error.",
        all,
      );
    }
    const allowed = aiCrawlers.filter((crawler) => verdict.allowed[crawler]);
    const items = aiCrawlers.map((crawler) => ({
      user_agent: crawler,
      allowed: verdict.allowed[crawler] ?? true,
    }));
    const message =
      allowed.length === aiCrawlers.length
        ? "robots.txt allows every listed AI crawler."
        : allowed.length === 0
          ? "robots.txt disallows every listed AI crawler."
          : `robots.txt allows ${allowed.join(", ")} and disallows the others.`;
    return outcome.info(message, verdict.allowed, items);
  },
};
