import { describe, expect, it } from "vitest";
import { httpsRedirect } from "../../../src/analysis/checks/https-redirect.js";
import { doc, pageFrom, probeFailed, probeOk, run } from "../../helpers/page.js";

describe("https-redirect", () => {
  it("passes when http:// redirects to https://", () => {
    expect(run(httpsRedirect, pageFrom(doc(""))).status).toBe("pass");
  });
  it("fails when http:// answers without redirecting to https", () => {
    const probe = probeOk(200, { url: "http://example.com/guide/page" });
    expect(run(httpsRedirect, pageFrom(doc(""), { probes: { httpVariant: probe } })).status).toBe("fail");
  });
  it("does not apply to http pages; cannot check when the probe failed", () => {
    expect(run(httpsRedirect, pageFrom(doc(""), { url: "http://example.com/" })).status).toBe("na");
    expect(run(httpsRedirect, pageFrom(doc(""), { probes: { httpVariant: probeFailed() } })).status).toBe(
      "error",
    );
  });
});
