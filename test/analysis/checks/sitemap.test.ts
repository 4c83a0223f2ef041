import { describe, expect, it } from "vitest";
import { sitemap } from "../../../src/analysis/checks/sitemap.js";
import { doc, pageFrom, probeFailed, probeOk, run } from "../../helpers/page.js";

describe("sitemap", () => {
  it("passes a sitemap declared in robots.txt or served at /sitemap.xml", () => {
    expect(run(sitemap, pageFrom(doc(""), { robots: "Sitemap: https://example.com/s.xml" })).status).toBe(
      "pass",
    );
    const served = probeOk(200, { mediaType: "application/xml", text: "<?xml version='1.0'?><urlset/>" });
    expect(run(sitemap, pageFrom(doc(""), { probes: { sitemap: served } })).status).toBe("pass");
  });
  it("fails without a sitemap", () => {
    expect(run(sitemap, pageFrom(doc(""))).status).toBe("fail");
    expect(
      run(
        sitemap,
        pageFrom(doc(""), { probes: { sitemap: probeOk(200, { mediaType: "text/html", text: "<html>" }) } }),
      ).status,
    ).toBe("fail");
  });
  it("cannot check when the probe failed", () => {
    expect(run(sitemap, pageFrom(doc(""), { probes: { sitemap: probeFailed() } })).status).toBe("error");
  });
});
