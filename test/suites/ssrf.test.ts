import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ReportStore } from "../../src/store/report-store.js";
import { call, countReports, startApi, type TestApi } from "../helpers/api.js";
import { type DnsServer, startDnsServer } from "../helpers/dns-server.js";
import { html, type LocalServer, redirect, startServer } from "../helpers/local-server.js";
import { seedRow } from "../helpers/seed.js";

/**
 * SSRF through the service, with PAGEGRADE_ALLOW_PRIVATE_NETWORKS off: every way of naming an inside address,
 * redirects to one, and DNS answers that change between lookups, submitted through POST /api/v1/reports and
 * results=1 re-runs. Each is a 422 with the right reason, nothing is created or changed, and canary servers
 * on 127.0.0.1 (and ::1) record zero connections.
 */
const literals = [
  "127.0.0.1",
  "127.1",
  "127.0.1",
  "2130706433",
  "0x7f.1",
  "0x7f000001",
  "017700000001",
  "0177.0.0.1",
  "[::1]",
  "[::ffff:127.0.0.1]",
  "[::ffff:7f00:1]",
  "[0:0:0:0:0:ffff:127.0.0.1]",
  "0.0.0.0",
  "0",
  "169.254.169.254",
  "10.0.0.1",
  "172.16.0.1",
  "192.168.1.1",
  "100.64.0.1",
  "[fe80::1]",
  "[fc00::1]",
  "[64:ff9b::7f00:1]",
  "224.0.0.1",
  "255.255.255.255",
  "localhost",
  "LOCALHOST",
  "localhost.",
  "api.localhost",
];

describe("SSRF through the service", () => {
  let api: TestApi;
  let canary: LocalServer;
  let canary6: LocalServer | null = null;
  let outside: LocalServer;
  let dns: DnsServer;
  let key: string;
  let userId: number;
  let attempts = 0;

  beforeAll(async () => {
    // "outside" stands for a public site: it lives on 127.0.0.2, which the allow-list admits; the canaries
    // take the same port on 127.0.0.1 and ::1.
    outside = await startServer({}, { host: "127.0.0.2", fallback: () => {} });
    canary = await startServer({ "/": html("<title>canary</title>") }, { port: outside.port });
    try {
      canary6 = await startServer(
        { "/": html("<title>canary</title>") },
        { host: "::1", port: outside.port },
      );
    } catch {
      canary6 = null;
    }
    await outside.close();
    outside = await startServer(
      {
        "/": html('<!doctype html><html lang="en"><title>An outside page</title></html>'),
        "/to-loopback": redirect(`http://127.0.0.1:${canary.port}/`),
        "/to-metadata": redirect("http://169.254.169.254/latest/meta-data/"),
        "/to-name": redirect(`http://inside.test:${canary.port}/`),
        "/to-ipv6": redirect(`http://[::1]:${canary.port}/`),
        "/chain": redirect("/chain-2"),
        "/chain-2": redirect(`http://0x7f.1:${canary.port}/`),
      },
      { host: "127.0.0.2", port: canary.port },
    );
    dns = await startDnsServer((name, query) => {
      if (name === "inside.test") return ["127.0.0.1"];
      if (name === "mixed.test") return ["127.0.0.2", "10.0.0.1"];
      if (name === "six.test") return ["::1"];
      if (name === "rebind.test") return query % 2 === 1 ? ["127.0.0.2"] : ["127.0.0.1"];
      return [];
    });
    api = await startApi("sqlite", {
      PAGEGRADE_ALLOW_PRIVATE_NETWORKS: "0",
      PAGEGRADE_ALLOWED_ADDRESSES: "127.0.0.2",
      PAGEGRADE_DNS_SERVERS: dns.server,
    });
    key = await api.newUser();
    userId = (await api.accounts.authenticate(key))?.account.id as number;
  });

  afterAll(async () => {
    console.log(
      `ssrf: ${attempts} attempts through store and re-run, ${canary.connections + (canary6?.connections ?? 0)} canary connections`,
    );
    await api?.close();
    await Promise.all([canary?.close(), canary6?.close(), outside?.close(), dns?.close()]);
  });

  const canaryConnections = () => canary.connections + (canary6?.connections ?? 0);

  const refusedEverywhere = async (url: string, reason: string) => {
    const before = await countReports(api);
    attempts++;
    const stored = await call(api, "POST", "/api/v1/reports", { key, form: { url } });
    expect(stored.statusCode, url).toBe(422);
    expect(stored.json().reason, url).toBe(reason);
    expect(await countReports(api)).toBe(before);

    const row = await new ReportStore(api.database.store).insert(seedRow(userId, { url, score: 42 }));
    attempts++;
    const rerun = await call(api, "PATCH", `/api/v1/reports/${row.id}`, { key, form: { results: "1" } });
    expect(rerun.statusCode, url).toBe(422);
    expect(rerun.json().reason, url).toBe(reason);
    const after = (await call(api, "GET", `/api/v1/reports/${row.id}`, { key })).json().data;
    expect(after).toMatchObject({ score: 42, generated_at: row.generated_at });
    await call(api, "DELETE", `/api/v1/reports/${row.id}`, { key });
    expect(canaryConnections()).toBe(0);
  };

  it.each(literals)("refuses http://%s", async (host) => {
    await refusedEverywhere(`http://${host}:${canary.port}/`, "private-address");
  });

  it.each(["inside.test", "mixed.test", "six.test"])(
    "refuses the name %s that resolves inside",
    async (name) => {
      await refusedEverywhere(`http://${name}:${canary.port}/`, "private-address");
    },
  );

  it.each(["/to-loopback", "/to-metadata", "/to-name", "/to-ipv6", "/chain"])(
    "refuses a redirect from outside to inside (%s)",
    async (path) => {
      await refusedEverywhere(`${outside.url}${path}`, "private-address");
    },
  );

  it("never connects inside when DNS answers change between lookups", async () => {
    for (let attempt = 0; attempt < 10; attempt++) {
      attempts++;
      const response = await call(api, "POST", "/api/v1/reports", {
        key,
        form: { url: `http://rebind.test:${canary.port}/` },
      });
      expect([201, 422]).toContain(response.statusCode);
      if (response.statusCode === 422) expect(response.json().reason).toBe("private-address");
    }
    expect(canaryConnections()).toBe(0);
  });
});
