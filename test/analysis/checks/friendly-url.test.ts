import { describe, expect, it } from "vitest";
import { friendlyUrl } from "../../../src/analysis/checks/friendly-url.js";
import { doc, pageFrom, run } from "../../helpers/page.js";

const at = (url: string) => run(friendlyUrl, pageFrom(doc(""), { url }));

describe("friendly-url", () => {
  it("passes a short readable path", () => {
    expect(at("https://example.com/guides/bike-repair?page=2").status).toBe("pass");
  });
  it("warns and names each problem", () => {
    const result = at("https://example.com/my_page%20one?a=1&b=2&c=3");
    expect(result.status).toBe("warn");
    expect(result.items?.map((item) => item.problem)).toEqual([
      "the path contains underscores",
      "the path contains encoded spaces",
      "it has 3 query parameters",
    ]);
    expect(at(`https://example.com/${"a".repeat(100)}`).status).toBe("warn");
  });
});
