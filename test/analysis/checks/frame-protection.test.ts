import { describe, expect, it } from "vitest";
import { frameProtection } from "../../../src/analysis/checks/frame-protection.js";
import { doc, pageFrom, run } from "../../helpers/page.js";

const withHeaders = (headers: Record<string, string>) => run(frameProtection, pageFrom(doc(""), { headers }));

describe("frame-protection", () => {
  it("passes X-Frame-Options or CSP frame-ancestors", () => {
    expect(withHeaders({ "x-frame-options": "SAMEORIGIN" }).status).toBe("pass");
    expect(
      withHeaders({ "content-security-policy": "default-src 'self'; frame-ancestors 'none'" }).value,
    ).toBe("frame-ancestors 'none'");
  });
  it("warns without either", () => {
    expect(withHeaders({}).status).toBe("warn");
    expect(withHeaders({ "x-frame-options": "ALLOW-FROM https://x.org" }).status).toBe("warn");
  });
});
