import { describe, expect, it } from "vitest";
import { loadTime } from "../../../src/analysis/checks/load-time.js";
import { doc, pageFrom, run } from "../../helpers/page.js";

const at = (totalMs: number) => run(loadTime, pageFrom(doc(""), { response: { totalMs } })).status;

describe("load-time", () => {
  it("passes up to 2 s, warns up to 4 s, fails above", () => {
    expect([at(2000), at(2001), at(4000), at(4001)]).toEqual(["pass", "warn", "warn", "fail"]);
  });
});
