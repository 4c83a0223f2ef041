import { describe, expect, it } from "vitest";
import { contentSecurityPolicy } from "../../../src/analysis/checks/content-security-policy.js";
import { doc, pageFrom, run } from "../../helpers/page.js";

describe("content-security-policy", () => {
  it("passes a header or a meta policy", () => {
    expect(
      run(
        contentSecurityPolicy,
        pageFrom(doc(""), { headers: { "content-security-policy": "default-src 'self'" } }),
      ).status,
    ).toBe("pass");
    expect(
      run(
        contentSecurityPolicy,
        pageFrom(doc("", `<meta http-equiv="Content-Security-Policy" content="default-src 'self'">`)),
      ).status,
    ).toBe("pass");
  });
  it("warns without a policy", () => {
    expect(run(contentSecurityPolicy, pageFrom(doc(""))).status).toBe("warn");
  });
});
