import { describe, expect, it } from "vitest";
import { headingOrder } from "../../../src/analysis/checks/heading-order.js";
import { doc, pageFrom, run } from "../../helpers/page.js";

describe("heading-order", () => {
  it("passes levels that never skip going down", () => {
    expect(
      run(headingOrder, pageFrom(doc("<h1>a</h1><h2>b</h2><h3>c</h3><h2>d</h2><h2>e</h2>"))).status,
    ).toBe("pass");
  });
  it("warns and lists each skip", () => {
    const result = run(headingOrder, pageFrom(doc("<h1>a</h1><h2>b</h2><h4>c</h4><h2>d</h2><h5>e</h5>")));
    expect(result.status).toBe("warn");
    expect(result.items).toEqual([
      { from: "h2", to: "h4", text: "c" },
      { from: "h2", to: "h5", text: "e" },
    ]);
  });
  it("does not apply without headings", () => {
    expect(run(headingOrder, pageFrom(doc("<p>x</p>"))).status).toBe("na");
  });
});
