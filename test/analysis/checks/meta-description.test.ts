import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { metaDescription } from "../../../src/analysis/checks/meta-description.js";
import { doc, pageFrom, run } from "../../helpers/page.js";

const meta = (content: string) => `<meta name="description" content="${content}">`;

describe("meta-description", () => {
  it("passes one description of good length", () => {
    expect(
      run(
        metaDescription,
        pageFrom(doc("", meta("A clear summary of what this page offers visitors who arrive here."))),
      ).status,
    ).toBe("pass");
  });
  it("warns outside 50–160 characters", () => {
    expect(run(metaDescription, pageFrom(doc("", meta("Too short.")))).status).toBe("warn");
    expect(run(metaDescription, pageFrom(doc("", meta("x".repeat(161))))).status).toBe("warn");
  });
  it("fails when missing, empty or repeated", () => {
    expect(run(metaDescription, pageFrom(doc(""))).status).toBe("fail");
    expect(run(metaDescription, pageFrom(doc("", meta("")))).status).toBe("fail");
    expect(run(metaDescription, pageFrom(doc("", meta("a".repeat(60)) + meta("b".repeat(60))))).status).toBe(
      "fail",
    );
  });
  it("matches the name case-insensitively", () => {
    expect(
      run(metaDescription, pageFrom(doc("", `<meta name="Description" content="${"c".repeat(60)}">`))).status,
    ).toBe("pass");
  });
  it("fails a description the parser moved into the body, and says where it is", () => {
    const html = readFileSync(
      new URL("../../fixtures/pages/meta-description-in-body.html", import.meta.url),
      "utf8",
    );
    const result = run(metaDescription, pageFrom(html));
    expect(result.status).toBe("fail");
    expect(result.message).toBe(
      "The page has no meta description in its <head>; 1 meta description in the <body> does not count.",
    );
    const fixed = html.replace('<div class="banner">Cookie notice</div>', "");
    expect(run(metaDescription, pageFrom(fixed)).status).toBe("pass");
  });
});

describe("meta-description where pagegrade differs from Lighthouse", () => {
  it("fails two descriptions, where Lighthouse reads the first", () => {
    const html = readFileSync(new URL("../../fixtures/pages/head-duplicates.html", import.meta.url), "utf8");
    const result = run(metaDescription, pageFrom(html));
    expect(result.status).toBe("fail");
    expect(result.message).toBe("The page has 2 meta descriptions; it should have one.");
    const single = html.replace(/<meta name="description" content="Garden tools[^>]*>/, "");
    expect(run(metaDescription, pageFrom(single)).status).toBe("pass");
  });
});
