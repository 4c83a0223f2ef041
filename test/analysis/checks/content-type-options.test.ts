import { describe, expect, it } from "vitest";
import { contentTypeOptions } from "../../../src/analysis/checks/content-type-options.js";
import { doc, pageFrom, run } from "../../helpers/page.js";

describe("content-type-options", () => {
  it("passes nosniff and warns otherwise", () => {
    expect(
      run(contentTypeOptions, pageFrom(doc(""), { headers: { "x-content-type-options": "NoSniff" } })).status,
    ).toBe("pass");
    expect(
      run(contentTypeOptions, pageFrom(doc(""), { headers: { "x-content-type-options": "yes" } })).status,
    ).toBe("warn");
    expect(run(contentTypeOptions, pageFrom(doc(""))).status).toBe("warn");
  });
});
