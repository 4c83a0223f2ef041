import { describe, expect, it } from "vitest";
import { aiCrawlersCheck } from "../../../src/analysis/checks/ai-crawlers.js";
import { doc, pageFrom, run } from "../../helpers/page.js";

describe("ai-crawlers", () => {
  it("always reports info, listing each crawler", () => {
    const result = run(
      aiCrawlersCheck,
      pageFrom(doc(""), { robots: "User-agent: GPTBot\nDisallow: /\n\nUser-agent: CCBot\nDisallow: /guide" }),
    );
    expect(result.status).toBe("info");
    expect(result.value).toEqual({
      GPTBot: false,
      ClaudeBot: true,
      PerplexityBot: true,
      "OAI-SearchBot": true,
      "Google-Extended": true,
      CCBot: false,
    });
    expect(run(aiCrawlersCheck, pageFrom(doc(""))).status).toBe("info");
  });
});
