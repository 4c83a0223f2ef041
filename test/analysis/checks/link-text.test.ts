import { describe, expect, it } from "vitest";
import { linkText } from "../../../src/analysis/checks/link-text.js";
import { doc, pageFrom, run } from "../../helpers/page.js";

describe("link-text", () => {
  it("passes descriptive texts and ignores nofollow links", () => {
    expect(
      run(
        linkText,
        pageFrom(doc('<a href="/pricing">Pricing for teams</a><a href="/x" rel="nofollow">click here</a>')),
      ).status,
    ).toBe("pass");
  });
  it("warns on generic texts in several languages", () => {
    const result = run(
      linkText,
      pageFrom(
        doc(
          '<a href="/a">Click here</a><a href="/b">Read more…</a><a href="/c">Lire la suite</a><a href="/d">Weiterlesen</a>',
        ),
      ),
    );
    expect(result.status).toBe("warn");
    expect(result.value).toBe(4);
  });
  it("uses aria-label as the text when present", () => {
    expect(run(linkText, pageFrom(doc('<a href="/a" aria-label="Annual report 2025">more</a>'))).status).toBe(
      "pass",
    );
  });
  it("does not apply without followed links", () => {
    expect(run(linkText, pageFrom(doc("<p>x</p>"))).status).toBe("na");
  });
});
