import { describe, expect, it } from "vitest";
import { serverResponseTime } from "../../../src/analysis/checks/server-response-time.js";
import { doc, pageFrom, run } from "../../helpers/page.js";

const at = (ttfbMs: number) => run(serverResponseTime, pageFrom(doc(""), { response: { ttfbMs } })).status;

describe("server-response-time", () => {
  it("passes up to 600 ms, warns up to 1.5 s, fails above", () => {
    expect([at(600), at(601), at(1500), at(1501)]).toEqual(["pass", "warn", "warn", "fail"]);
  });
});
