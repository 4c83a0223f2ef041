import { describe, expect, it } from "vitest";
import { Analyzer } from "../../../src/analysis/analyse.js";
import { notFoundPage } from "../../../src/analysis/checks/not-found-page.js";
import { missingPathFor } from "../../../src/analysis/collect.js";
import { loadAnalysisConfig } from "../../../src/config.js";
import { html, startServer } from "../../helpers/local-server.js";
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

describe("not-found-page end to end", () => {
  it("probes the same missing path of an origin every time, so its evidence is stable between analyses", async () => {
    const page = "<!doctype html><html lang=en><title>Everything answers 200</title></html>";
    const server = await startServer({}, { fallback: html(page) });
    try {
      const evidence = [];
      // A fresh analyzer each time: its probe cache would otherwise answer the second analysis.
      for (let run = 0; run < 2; run++) {
        const analyzer = new Analyzer(loadAnalysisConfig({ PAGEGRADE_ALLOW_PRIVATE_NETWORKS: "1" }));
        const { report } = await analyzer.analyse(`${server.url}/`);
        await analyzer.close();
        expect(report.results["not-found-page"]?.status).toBe("fail");
        evidence.push(report.results["not-found-page"]?.details?.items);
      }
      expect(evidence[0]).toEqual(evidence[1]);
      expect(evidence[0]).toEqual([
        {
          url: `${server.url}${missingPathFor(server.url)}`,
          status: 200,
          final_url: `${server.url}${missingPathFor(server.url)}`,
        },
      ]);
      expect(missingPathFor(server.url)).not.toBe(missingPathFor("https://example.com"));
    } finally {
      await server.close();
    }
  });
});
