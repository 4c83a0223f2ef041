import { describe, expect, it } from "vitest";
import { notFoundPage } from "../../../src/analysis/checks/not-found-page.js";
import { doc, pageFrom, probeFailed, probeOk, run } from "../../helpers/page.js";

const withProbe = (probe: ReturnType<typeof probeOk>) =>
  run(notFoundPage, pageFrom(doc(""), { probes: { notFound: probe } }));

describe("not-found-page", () => {
  it("passes on 404 and 410", () => {
    expect(withProbe(probeOk(404)).status).toBe("pass");
    expect(withProbe(probeOk(410)).status).toBe("pass");
  });
  it("fails on a soft 404, also behind a redirect", () => {
    expect(withProbe(probeOk(200)).status).toBe("fail");
    const redirected = withProbe(
      probeOk(200, {
        url: "https://example.com/",
        redirects: [{ url: "https://example.com/missing", status: 302, location: "https://example.com/" }],
      }),
    );
    expect(redirected.status).toBe("fail");
    expect(redirected.message).toContain("after redirecting");
  });
  it("warns on other statuses", () => {
    expect(withProbe(probeOk(500)).status).toBe("warn");
  });
  it("cannot check behind a firewall or when the probe failed", () => {
    expect(withProbe(probeOk(403)).status).toBe("error");
    expect(withProbe(probeFailed()).status).toBe("error");
  });
});
