import { describe, expect, it } from "vitest";
import { serverSignature } from "../../../src/analysis/checks/server-signature.js";
import { doc, pageFrom, run } from "../../helpers/page.js";

const withHeaders = (headers: Record<string, string>) => run(serverSignature, pageFrom(doc(""), { headers }));

describe("server-signature", () => {
  it("passes bare product names", () => {
    expect(withHeaders({ server: "nginx" }).status).toBe("pass");
    expect(withHeaders({ server: "cloudflare", "x-powered-by": "Express" }).status).toBe("pass");
  });
  it("fails on versions and shows the header", () => {
    const result = withHeaders({ server: "Apache/2.4.57 (Debian)", "x-powered-by": "PHP/8.2.1" });
    expect(result.status).toBe("fail");
    expect(result.items).toEqual([
      { header: "server", value: "Apache/2.4.57 (Debian)" },
      { header: "x-powered-by", value: "PHP/8.2.1" },
    ]);
    expect(withHeaders({ "x-aspnet-version": "4.0.30319" }).status).toBe("fail");
  });
});
