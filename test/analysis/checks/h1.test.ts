import { describe, expect, it } from "vitest";
import { h1 } from "../../../src/analysis/checks/h1.js";
import { doc, pageFrom, run } from "../../helpers/page.js";

describe("h1", () => {
  it("passes one h1 with text", () => {
    expect(run(h1, pageFrom(doc("<h1>Welcome <em>home</em></h1>"))).message).toContain('"Welcome home"');
  });
  it("warns on several h1", () => {
    const result = run(h1, pageFrom(doc("<h1>One</h1><h1>Two</h1>")));
    expect(result.status).toBe("warn");
    expect(result.items).toEqual([{ text: "One" }, { text: "Two" }]);
  });
  it("fails with no h1 or only empty ones", () => {
    expect(run(h1, pageFrom(doc("<h2>Sub</h2>"))).status).toBe("fail");
    expect(run(h1, pageFrom(doc("<h1> </h1>"))).status).toBe("fail");
  });
});
