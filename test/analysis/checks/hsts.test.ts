import { describe, expect, it } from "vitest";
import { hsts } from "../../../src/analysis/checks/hsts.js";
import { doc, pageFrom, run } from "../../helpers/page.js";

const withHeader = (value?: string) =>
  run(hsts, pageFrom(doc(""), { headers: value ? { "strict-transport-security": value } : {} }));

describe("hsts", () => {
  it("passes a max-age of a year or more", () => {
    expect(withHeader("max-age=31536000; includeSubDomains").status).toBe("pass");
  });
  it("warns on a shorter or invalid max-age", () => {
    expect(withHeader("max-age=86400").status).toBe("warn");
    expect(withHeader("includeSubDomains").status).toBe("warn");
  });
  it("fails when missing on https, does not apply to http", () => {
    expect(withHeader().status).toBe("fail");
    expect(run(hsts, pageFrom(doc(""), { url: "http://example.com/" })).status).toBe("na");
  });
});
