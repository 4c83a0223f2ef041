import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Analyzer } from "../../../src/analysis/analyse.js";
import { FetchFailure } from "../../../src/analysis/fetch/fetch-failure.js";
import { loadAnalysisConfig } from "../../../src/config.js";
import { type DnsServer, startDnsServer } from "../../helpers/dns-server.js";
import { html, type LocalServer, redirect, startServer } from "../../helpers/local-server.js";

/**
 * Every way of writing a loopback or private address is refused with the guard on, and no connection ever
 * reaches the canary servers listening on 127.0.0.1 and ::1.
 */
describe("connection guard", () => {
  let site: LocalServer;
  let canary: LocalServer;
  let canary6: LocalServer | null = null;
  let dns: DnsServer;
  let analyzer: Analyzer;

  beforeAll(async () => {
    // The "public" site lives on 127.0.0.2, which the allow-list admits; the canary takes the same port on 127.0.0.1.
    site = await startServer(
      {
        "/": html("<title>site</title>"),
        "/hop": (request, response) => redirect(`http://127.0.0.1:${site.port}/`)(request, response),
      },
      { host: "127.0.0.2" },
    );
    canary = await startServer(
      { "/": html("<title>canary</title>") },
      { host: "127.0.0.1", port: site.port },
    );
    try {
      canary6 = await startServer({ "/": html("<title>canary</title>") }, { host: "::1", port: site.port });
    } catch {
      canary6 = null; // no IPv6 loopback on this machine
    }
    dns = await startDnsServer((name, query) => {
      if (name === "private.test") return ["127.0.0.1"];
      if (name === "mixed.test") return ["127.0.0.2", "10.0.0.1"];
      // Alternates between the allowed address and the canary's: a second lookup at connect time would
      // land on the canary.
      if (name === "rebind.test") return query % 2 === 1 ? ["127.0.0.2"] : ["127.0.0.1"];
      return [];
    });
    analyzer = new Analyzer(
      loadAnalysisConfig({
        PAGEGRADE_ALLOWED_ADDRESSES: "127.0.0.2",
        PAGEGRADE_DNS_SERVERS: dns.server,
        PAGEGRADE_PROBE_CACHE_SECONDS: "0",
        PAGEGRADE_FETCH_TIMEOUT_MS: "3000",
      }),
    );
  });

  afterAll(async () => {
    await analyzer.close();
    await Promise.all([site.close(), canary.close(), canary6?.close(), dns.close()]);
  });

  const refusal = async (url: string) => {
    const error = await analyzer.analyse(url).then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(FetchFailure);
    return error as FetchFailure;
  };

  const canaryConnections = () => canary.connections + (canary6?.connections ?? 0);

  it.each([
    "127.0.0.1",
    "127.1",
    "2130706433",
    "0x7f.1",
    "017700000001",
    "[::1]",
    "[::ffff:127.0.0.1]",
    "[::ffff:7f00:1]",
    "0.0.0.0",
    "169.254.169.254",
    "10.0.0.1",
    "100.64.0.1",
    "192.168.1.1",
    "172.16.0.1",
    "[fe80::1]",
    "[fd00::1]",
    "[64:ff9b::7f00:1]",
    "224.0.0.1",
  ])("refuses http://%s", async (host) => {
    const failure = await refusal(`http://${host}:${site.port}/`);
    expect(failure.reason).toBe("private-address");
    expect(canaryConnections()).toBe(0);
  });

  it("refuses a host name that resolves to a private address", async () => {
    const failure = await refusal(`http://private.test:${site.port}/`);
    expect(failure.reason).toBe("private-address");
    expect(canaryConnections()).toBe(0);
  });

  it("refuses a host name when any of its addresses is private", async () => {
    const failure = await refusal(`http://mixed.test:${site.port}/`);
    expect(failure.reason).toBe("private-address");
  });

  it("connects to the address it vetted when the answer changes between lookups (DNS rebinding)", async () => {
    const pageRequestsBefore = site.requests.filter((path) => path === "/").length;
    const outcomes: string[] = [];
    for (let attempt = 0; attempt < 6; attempt++) {
      const outcome = await analyzer.analyse(`http://rebind.test:${site.port}/`).then(
        () => "analysed",
        (error: FetchFailure) => error.reason,
      );
      outcomes.push(outcome);
    }
    // Each connection is made to the answer it vetted: the allowed host when that came first, refused otherwise.
    expect(outcomes.every((outcome) => outcome === "analysed" || outcome === "private-address")).toBe(true);
    expect(site.requests.filter((path) => path === "/").length).toBeGreaterThan(pageRequestsBefore);
    expect(canaryConnections()).toBe(0);
  });

  it("refuses a redirect from an allowed server to 127.0.0.1", async () => {
    const failure = await refusal(`${site.url}/hop`);
    expect(failure.reason).toBe("private-address");
    expect(canaryConnections()).toBe(0);
  });

  it("reports a host name that does not resolve", async () => {
    const failure = await refusal(`http://nowhere.test:${site.port}/`);
    expect(failure.reason).toBe("unresolvable");
  });

  it("lets the allow-listed address through", async () => {
    const { report } = await analyzer.analyse(`${site.url}/`);
    expect(report.project).toBe("127.0.0.2");
    expect(canaryConnections()).toBe(0);
  });
});
