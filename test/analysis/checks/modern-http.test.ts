import { describe, expect, it } from "vitest";
import { modernHttp } from "../../../src/analysis/checks/modern-http.js";
import { doc, pageFrom, run } from "../../helpers/page.js";

describe("modern-http", () => {
  it("passes HTTP/2 and warns on HTTP/1.1", () => {
    expect(run(modernHttp, pageFrom(doc(""), { response: { protocol: "h2" } })).status).toBe("pass");
    expect(run(modernHttp, pageFrom(doc(""), { response: { protocol: "http/1.1" } })).status).toBe("warn");
  });
});
