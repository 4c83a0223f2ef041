import { describe, expect, it } from "vitest";
import { pageSize } from "../../../src/analysis/checks/page-size.js";
import { doc, pageFrom, run } from "../../helpers/page.js";

const at = (htmlBytes: number) => run(pageSize, pageFrom(doc(""), { response: { htmlBytes } })).status;

describe("page-size", () => {
  it("passes up to 300 KB, warns up to 1 MB, fails above", () => {
    expect([at(300_000), at(300_001), at(1_000_000), at(1_000_001)]).toEqual([
      "pass",
      "warn",
      "warn",
      "fail",
    ]);
  });
});
