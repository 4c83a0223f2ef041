import { describe, expect, it } from "vitest";
import { favicon } from "../../../src/analysis/checks/favicon.js";
import { doc, pageFrom, probeFailed, probeOk, run } from "../../helpers/page.js";

describe("favicon", () => {
  it("passes a declared icon or a served /favicon.ico", () => {
    expect(run(favicon, pageFrom(doc("", '<link rel="shortcut icon" href="/i.png">'))).status).toBe("pass");
    expect(
      run(favicon, pageFrom(doc(""), { probes: { favicon: probeOk(200, { mediaType: "image/x-icon" }) } }))
        .status,
    ).toBe("pass");
  });
  it("fails with no icon anywhere, or HTML served as the icon", () => {
    expect(run(favicon, pageFrom(doc(""))).status).toBe("fail");
    expect(
      run(favicon, pageFrom(doc(""), { probes: { favicon: probeOk(200, { mediaType: "text/html" }) } }))
        .status,
    ).toBe("fail");
  });
  it("cannot check when the probe failed", () => {
    expect(run(favicon, pageFrom(doc(""), { probes: { favicon: probeFailed() } })).status).toBe("error");
  });
});
