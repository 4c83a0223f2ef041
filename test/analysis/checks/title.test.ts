import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { title } from "../../../src/analysis/checks/title.js";
import { doc, pageFrom, run } from "../../helpers/page.js";

describe("title", () => {
  it("passes a single title of good length", () => {
    const result = run(title, pageFrom(doc("", "<title>Pricing plans for small teams</title>")));
    expect(result.status).toBe("pass");
    expect(result.value).toBe(29);
  });
  it("warns when too short or too long", () => {
    expect(run(title, pageFrom(doc("", "<title>Home</title>"))).status).toBe("warn");
    expect(run(title, pageFrom(doc("", `<title>${"Long words ".repeat(7)}</title>`))).status).toBe("warn");
  });
  it("fails when missing, empty or repeated", () => {
    expect(run(title, pageFrom(doc("<p>x</p>"))).status).toBe("fail");
    expect(run(title, pageFrom(doc("", "<title>  </title>"))).status).toBe("fail");
    const twice = run(
      title,
      pageFrom(doc("", "<title>One good title here</title><title>Another title</title>")),
    );
    expect(twice.status).toBe("fail");
    expect(twice.items).toHaveLength(2);
  });
  it("ignores SVG titles", () => {
    const page = pageFrom(
      doc("<svg><title>icon</title></svg>", "<title>Pricing plans for small teams</title>"),
    );
    expect(run(title, page).status).toBe("pass");
  });
});

describe("title where pagegrade differs from Lighthouse", () => {
  it("fails a second <title>, even one in the body, which Lighthouse ignores", () => {
    const html = readFileSync(new URL("../../fixtures/pages/head-duplicates.html", import.meta.url), "utf8");
    const result = run(title, pageFrom(html));
    expect(result.status).toBe("fail");
    expect(result.message).toBe("The page has 2 <title> elements; it should have one.");
    expect(run(title, pageFrom(html.replace(/<div><title>.*<\/title><\/div>/, ""))).status).toBe("pass");
  });
});
