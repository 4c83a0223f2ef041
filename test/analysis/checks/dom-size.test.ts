import { describe, expect, it } from "vitest";
import { domSize } from "../../../src/analysis/checks/dom-size.js";
import { doc, pageFrom, run } from "../../helpers/page.js";

const withElements = (count: number) => pageFrom(doc("<i></i>".repeat(count)));

describe("dom-size", () => {
  it("passes up to 1,500 elements, warns up to 3,000, fails above", () => {
    // doc() itself contributes 4 elements: html, head, meta, body.
    expect(run(domSize, withElements(1496)).status).toBe("pass");
    expect(run(domSize, withElements(1497)).status).toBe("warn");
    expect(run(domSize, withElements(2996)).status).toBe("warn");
    expect(run(domSize, withElements(2997)).status).toBe("fail");
  });
});
