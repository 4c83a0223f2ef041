import { request as httpRequest } from "node:http";
import { connect, createServer, type Server } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AddressPolicy } from "../../../src/analysis/fetch/address-policy.js";
import { ConnectionGuard } from "../../../src/analysis/fetch/connection-guard.js";
import { dnsServerResolver } from "../../../src/analysis/fetch/host-resolver.js";
import { GuardProxy } from "../../../src/analysis/render/guard-proxy.js";
import { type DnsServer, startDnsServer } from "../../helpers/dns-server.js";
import { html, type LocalServer, redirect, startServer } from "../../helpers/local-server.js";

/**
 * The browser's proxy spoken to directly, the way Chromium speaks to it: absolute-form requests and CONNECT
 * tunnels to a "public" site on 127.0.0.2 pass and are pinned to the vetted address; inside addresses, names
 * resolving inside and malformed targets get a 403; redirects come back unfollowed; the caps hold.
 */
describe("guard proxy", () => {
  let site: LocalServer;
  let canary: LocalServer;
  let echo: Server;
  let echoPort: number;
  let dns: DnsServer;
  let guard: ConnectionGuard;

  beforeAll(async () => {
    site = await startServer(
      {
        "/": html("<title>site</title>", { "set-cookie": "a=1", "x-extra": "yes" }),
        "/hop": (request, response) => redirect(`http://127.0.0.1:${site.port}/`, 302)(request, response),
        "/big": (_request, response) => response.end(Buffer.alloc(64 * 1024, "a")),
      },
      { host: "127.0.0.2" },
    );
    canary = await startServer(
      { "/": html("<title>canary</title>") },
      { host: "127.0.0.1", port: site.port },
    );
    // A raw TCP echo server on 127.0.0.2, standing in for a TLS server behind a CONNECT tunnel.
    echo = createServer((socket) => socket.pipe(socket));
    await new Promise<void>((resolve) => echo.listen(0, "127.0.0.2", resolve));
    echoPort = (echo.address() as { port: number }).port;
    dns = await startDnsServer((name) => {
      if (name === "public.test") return ["127.0.0.2"];
      if (name === "inside.test") return ["127.0.0.1"];
      return [];
    });
    guard = new ConnectionGuard(
      new AddressPolicy({ allowPrivateNetworks: false, allowedRanges: ["127.0.0.2"] }),
      dnsServerResolver([dns.server]),
    );
  });

  afterAll(async () => {
    await Promise.all([site.close(), canary.close(), dns.close()]);
    await new Promise<void>((resolve) => echo.close(() => resolve()));
  });

  const withProxy = async <T>(
    run: (proxy: GuardProxy) => Promise<T>,
    limits = { maxRequests: 100, maxBytes: 1024 * 1024, connectTimeoutMs: 2000 },
  ): Promise<T> => {
    const proxy = await GuardProxy.start(guard, limits);
    try {
      return await run(proxy);
    } finally {
      await proxy.close();
    }
  };

  /** GET in absolute form through the proxy. */
  const get = (proxy: GuardProxy, target: string) =>
    new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>(
      (resolve, reject) => {
        const { port } = new URL(proxy.url);
        const outgoing = httpRequest({
          host: "127.0.0.1",
          port,
          path: target,
          headers: { host: new URL(target).host },
        });
        outgoing.on("response", (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("end", () =>
            resolve({
              status: response.statusCode ?? 0,
              headers: response.headers,
              body: Buffer.concat(chunks).toString(),
            }),
          );
          response.on("error", reject);
        });
        outgoing.on("error", reject);
        outgoing.end();
      },
    );

  /** Sends "CONNECT authority", then (when established) a line that the echo server sends back. */
  const tunnel = (proxy: GuardProxy, authority: string) =>
    new Promise<{ statusLine: string; echoed: string }>((resolve) => {
      const socket = connect(Number(new URL(proxy.url).port), "127.0.0.1");
      let received = "";
      let statusLine = "";
      socket.on("data", (chunk) => {
        received += chunk.toString();
        if (!statusLine && received.includes("\r\n\r\n")) {
          statusLine = received.split("\r\n")[0] ?? "";
          received = received.slice(received.indexOf("\r\n\r\n") + 4);
          if (statusLine.includes(" 200 ")) socket.write("ping\n");
          else socket.end();
        }
        if (received.includes("ping\n")) socket.end();
      });
      socket.on("close", () => resolve({ statusLine, echoed: received }));
      socket.on("error", () => resolve({ statusLine, echoed: received }));
      socket.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n\r\n`);
    });

  it("passes a plain request to a public host and returns the answer as it came", async () => {
    await withProxy(async (proxy) => {
      const answer = await get(proxy, `http://127.0.0.2:${site.port}/`);
      expect(answer.status).toBe(200);
      expect(answer.body).toBe("<title>site</title>");
      expect(answer.headers["set-cookie"]).toEqual(["a=1"]);
      expect(answer.headers["x-extra"]).toBe("yes");
      const byName = await get(proxy, `http://public.test:${site.port}/`);
      expect(byName.status).toBe(200);
      expect(proxy.stats.requests).toBe(2);
      expect(proxy.stats.bytesReceived).toBe(2 * "<title>site</title>".length);
    });
  });

  it("vets each host once per page, for every request and tunnel to it, refusals included", async () => {
    await withProxy(async (proxy) => {
      const asked = (name: string) => dns.queries.filter((query) => query === `${name} A`).length;
      const before = { public: asked("public.test"), inside: asked("inside.test") };
      const answers = await Promise.all([
        get(proxy, `http://public.test:${site.port}/`),
        get(proxy, `http://public.test:${site.port}/`),
        tunnel(proxy, `public.test:${echoPort}`),
        get(proxy, `http://inside.test:${site.port}/`),
        get(proxy, `http://inside.test:${site.port}/`),
      ]);
      expect(answers.map((answer) => ("status" in answer ? answer.status : answer.statusLine))).toEqual([
        200,
        200,
        "HTTP/1.1 200 Connection Established",
        403,
        403,
      ]);
      expect(asked("public.test") - before.public).toBe(1);
      expect(asked("inside.test") - before.inside).toBe(1);
      expect(canary.connections).toBe(0);
    });
  });

  it("hands a redirect back without following it", async () => {
    await withProxy(async (proxy) => {
      const answer = await get(proxy, `http://127.0.0.2:${site.port}/hop`);
      expect(answer.status).toBe(302);
      expect(answer.headers.location).toBe(`http://127.0.0.1:${site.port}/`);
      expect(canary.connections).toBe(0);
    });
  });

  it.each([
    "127.0.0.1",
    "[::1]",
    "localhost",
    "2130706433",
    "0x7f.1",
    "[::ffff:127.0.0.1]",
    "inside.test",
    "unknown.test",
  ])("refuses a plain request to %s with a 403", async (host) => {
    await withProxy(async (proxy) => {
      const answer = await get(proxy, `http://${host}:${site.port}/`);
      expect(answer.status).toBe(403);
      expect(answer.body).toBe("");
      expect(proxy.stats.refusals).toHaveLength(1);
      expect(["private-address", "unresolvable"]).toContain(proxy.stats.refusals[0]?.reason);
    });
    expect(canary.connections).toBe(0);
  });

  it("tunnels CONNECT to a public host and relays bytes both ways", async () => {
    await withProxy(async (proxy) => {
      const result = await tunnel(proxy, `127.0.0.2:${echoPort}`);
      expect(result.statusLine).toBe("HTTP/1.1 200 Connection Established");
      expect(result.echoed).toBe("ping\n");
    });
  });

  it.each([
    `127.0.0.1:PORT`,
    `[::1]:PORT`,
    `localhost:PORT`,
    `inside.test:PORT`,
    `0177.0.0.1:PORT`,
    `127.0.0.1`,
    `user@127.0.0.2:PORT`,
    `127.0.0.2:PORT/path`,
  ])("refuses CONNECT %s with a 403", async (authority) => {
    await withProxy(async (proxy) => {
      const result = await tunnel(proxy, authority.replace("PORT", String(site.port)));
      expect(result.statusLine).toBe("HTTP/1.1 403 Forbidden");
      expect(result.echoed).toBe("");
    });
    expect(canary.connections).toBe(0);
  });

  it("refuses requests past the request cap", async () => {
    await withProxy(
      async (proxy) => {
        expect((await get(proxy, `http://127.0.0.2:${site.port}/`)).status).toBe(200);
        expect((await get(proxy, `http://127.0.0.2:${site.port}/`)).status).toBe(200);
        expect((await get(proxy, `http://127.0.0.2:${site.port}/`)).status).toBe(403);
        expect(proxy.stats.limitReached).toBe("requests");
      },
      { maxRequests: 2, maxBytes: 1024 * 1024, connectTimeoutMs: 2000 },
    );
  });

  it("cuts the page off past the byte cap", async () => {
    await withProxy(
      async (proxy) => {
        const cut = await get(proxy, `http://127.0.0.2:${site.port}/big`).then(
          (answer) => answer.body.length,
          () => -1,
        );
        expect(cut).toBeLessThan(64 * 1024);
        expect(proxy.stats.limitReached).toBe("bytes");
        expect((await get(proxy, `http://127.0.0.2:${site.port}/`)).status).toBe(403);
      },
      { maxRequests: 100, maxBytes: 16 * 1024, connectTimeoutMs: 2000 },
    );
  });
});
