import { randomBytes } from "node:crypto";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AddressPolicy } from "../../../src/analysis/fetch/address-policy.js";
import { BodyBuffer } from "../../../src/analysis/fetch/body-buffer.js";
import { ConnectionGuard } from "../../../src/analysis/fetch/connection-guard.js";
import { GuardedAgent } from "../../../src/analysis/fetch/guarded-agent.js";
import { type GetOptions, guardedGet } from "../../../src/analysis/fetch/guarded-get.js";
import { systemResolver } from "../../../src/analysis/fetch/host-resolver.js";
import { type LocalServer, startServer } from "../../helpers/local-server.js";

describe("a body buffer", () => {
  it("gathers chunks into exactly the bytes received, growing past its first size", () => {
    const chunks = Array.from({ length: 40 }, (_, index) => randomBytes(5000 + index));
    const gathered = new BodyBuffer(null, 1024 * 1024);
    for (const chunk of chunks) gathered.append(chunk);
    const body = gathered.take();
    expect(body.equals(Buffer.concat(chunks))).toBe(true);
    expect(gathered.size).toBe(body.length);
  });

  it("takes its first size from the announced length, and still grows when the announcement was short", () => {
    const exact = new BodyBuffer(10, 100);
    exact.append(Buffer.from("0123456789"));
    const body = exact.take();
    expect(body.toString()).toBe("0123456789");
    expect(body.buffer.byteLength).toBe(10);
    const short = new BodyBuffer(4, 100);
    short.append(Buffer.from("0123456789"));
    expect(short.take().toString()).toBe("0123456789");
  });

  it("never holds more memory than its cap, whatever the announcement", () => {
    const gathered = new BodyBuffer(10 * 1024 * 1024, 1000);
    gathered.append(Buffer.alloc(600, 1));
    expect(() => gathered.append(Buffer.alloc(401, 2))).toThrow(RangeError);
    gathered.append(Buffer.alloc(400, 2));
    const body = gathered.take();
    expect(body.length).toBe(1000);
    expect(body.buffer.byteLength).toBe(1000);
  });

  it("hands out its body once", () => {
    const gathered = new BodyBuffer(null, 1000);
    gathered.append(Buffer.from("abc"));
    expect(gathered.take().toString()).toBe("abc");
    expect(() => gathered.take()).toThrow();
    expect(() => gathered.append(Buffer.from("d"))).toThrow();
  });
});

describe("a fetched body", () => {
  let server: LocalServer;
  let agent: GuardedAgent;
  const page = randomBytes(3 * 1024 * 1024 + 17);
  const options: GetOptions = {
    accept: "*/*",
    acceptEncoding: "identity",
    userAgent: "pagegrade-test",
    timeoutMs: 30_000,
    maxBodyBytes: 5 * 1024 * 1024,
    maxRedirects: 0,
    readBody: true,
    overLimit: "fail",
  };

  beforeAll(async () => {
    server = await startServer({
      // Chunked: no Content-Length, the buffer grows as the body comes.
      "/chunked": (_request, response) => {
        response.writeHead(200, { "content-type": "application/octet-stream" });
        for (let at = 0; at < page.length; at += 100_000) response.write(page.subarray(at, at + 100_000));
        response.end();
      },
      "/gzip": (_request, response) => {
        response.writeHead(200, { "content-encoding": "gzip" });
        response.end(gzipSync(page));
      },
      "/sized": (_request, response) => {
        response.writeHead(200, { "content-length": String(page.length) });
        response.end(page);
      },
    });
    agent = new GuardedAgent(
      new ConnectionGuard(
        new AddressPolicy({ allowPrivateNetworks: false, allowedRanges: ["127.0.0.1"] }),
        systemResolver,
      ),
      { connectTimeoutMs: 5000, headersTimeoutMs: 10_000, bodyTimeoutMs: 10_000, extraCaCertificates: null },
    );
  });

  afterAll(async () => {
    await agent?.close();
    await server?.close();
  });

  it("is the bytes served (decoded), in memory of its own, with or without a Content-Length", async () => {
    for (const path of ["/chunked", "/sized", "/gzip"]) {
      const response = await guardedGet(agent, new URL(`${server.url}${path}`), options);
      expect(response.body.equals(page), path).toBe(true);
    }
    const sized = await guardedGet(agent, new URL(`${server.url}/sized`), options);
    expect(sized.body.buffer.byteLength).toBe(page.length);
  });

  it("keeps the first bytes up to the cap when asked to truncate", async () => {
    const response = await guardedGet(agent, new URL(`${server.url}/chunked`), {
      ...options,
      maxBodyBytes: 250_000,
      overLimit: "truncate",
    });
    expect(response.body.equals(page.subarray(0, 250_000))).toBe(true);
    expect(response.body.buffer.byteLength).toBeLessThanOrEqual(250_000);
  });
});
