import { createServer, type Server, type Socket } from "node:net";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checks } from "../../src/analysis/checks/index.js";
import { call, startApi, type TestApi } from "../helpers/api.js";
import { html, type LocalServer, startServer } from "../helpers/local-server.js";

/**
 * Pages built to hurt: each ends in a clean report or a clean 422 within the configured time, and the
 * process's peak memory stays bounded.
 */
const fetchTimeoutMs = 3000;

describe("hostile targets", () => {
  let api: TestApi;
  let target: LocalServer;
  let raw: Server;
  let rawPort: number;
  let key: string;
  const outcomes: string[] = [];
  const startRss = process.memoryUsage().rss;

  beforeAll(async () => {
    // 200 gzip members of 1 MiB each: 200 MiB once decoded, built without ever holding 200 MiB here.
    const member = gzipSync(Buffer.alloc(1024 * 1024, "a"));
    const bomb = Buffer.concat(Array.from({ length: 200 }, () => member));
    const deep = `<!doctype html><html lang="en"><title>Deep nesting page</title><body>${"<div>".repeat(10_000)}deep${"</div>".repeat(10_000)}</body></html>`;
    const links = `<!doctype html><html lang="en"><title>A page of many links</title><body>${'<a href="#">x</a>'.repeat(300_000)}</body></html>`;
    target = await startServer({
      "/never": () => {
        // accepts the request and never answers
      },
      "/drip": (_request, response) => {
        response.writeHead(200, { "content-type": "text/html" });
        const timer = setInterval(() => response.write("a"), 1000);
        response.on("close", () => clearInterval(timer));
      },
      "/huge": (_request, response) => {
        response.writeHead(200, { "content-type": "text/html" });
        const chunk = Buffer.alloc(1024 * 1024, "a");
        let sent = 0;
        const pump = () => {
          while (sent < 100 && response.write(chunk)) sent++;
          if (sent >= 100) response.end();
        };
        response.on("drain", pump);
        response.on("close", () => response.removeListener("drain", pump));
        pump();
      },
      "/bomb": (_request, response) => {
        response.writeHead(200, { "content-type": "text/html", "content-encoding": "gzip" });
        response.end(bomb);
      },
      "/charset": (_request, response) => {
        response.writeHead(200, { "content-type": "text/html; charset=x-no-such-charset" });
        response.end(
          Buffer.concat([
            Buffer.from("<!doctype html><title>Bad bytes "),
            Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xa0, 0xa1]),
            Buffer.from("</title>"),
          ]),
        );
      },
      "/deep": html(deep),
      "/links": html(links),
      "/loop": (_request, response) => response.writeHead(302, { location: "/loop" }).end(),
      "/pingpong-a": (_request, response) => response.writeHead(301, { location: "/pingpong-b" }).end(),
      "/pingpong-b": (_request, response) => response.writeHead(301, { location: "/pingpong-a" }).end(),
    });
    // A server that speaks broken HTTP: malformed header lines, then garbage.
    raw = createServer((socket: Socket) => {
      socket.once("data", () => {
        socket.end(
          "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nBroken Header Without Colon\r\nX-Null: a\u0000b\r\n\r\n<html>",
        );
      });
    });
    await new Promise<void>((resolve) => raw.listen(0, "127.0.0.1", resolve));
    rawPort = (raw.address() as { port: number }).port;
    api = await startApi("sqlite", {
      PAGEGRADE_FETCH_TIMEOUT_MS: String(fetchTimeoutMs),
      PAGEGRADE_HEADERS_TIMEOUT_MS: "2000",
    });
    key = await api.newUser();
  });

  afterAll(async () => {
    const peakMb = Math.round(process.resourceUsage().maxRSS / 1024);
    console.log(`hostile-targets: ${outcomes.length} targets, ${outcomes.join(", ")}; peak RSS ${peakMb} MB`);
    await api?.close();
    await target?.close();
    raw?.close();
  });

  const submit = async (url: string) => {
    const started = performance.now();
    const response = await call(api, "POST", "/api/v1/reports", { key, form: { url } });
    const seconds = (performance.now() - started) / 1000;
    // Each ends within the configured deadline (plus the host probes' and parsing's share).
    expect(seconds).toBeLessThan((2 * fetchTimeoutMs) / 1000 + 3);
    return response;
  };

  it.each([
    ["/never", "timeout"],
    ["/drip", "timeout"],
    ["/huge", "too-large"],
    ["/bomb", "too-large"],
    ["/loop", "too-many-redirects"],
    ["/pingpong-a", "too-many-redirects"],
  ])("%s ends in a clean 422 (%s)", async (path, reason) => {
    const response = await submit(`${target.url}${path}`);
    expect(response.statusCode).toBe(422);
    expect(response.json().reason).toBe(reason);
    outcomes.push(`${path} 422 ${reason}`);
  });

  it("a server that speaks malformed HTTP ends in a clean 422", async () => {
    const response = await submit(`http://127.0.0.1:${rawPort}/`);
    expect(response.statusCode).toBe(422);
    expect(response.json().reason).toBe("connection-failed");
    outcomes.push("malformed-headers 422 connection-failed");
  });

  it.each(["/charset", "/deep", "/links"])("%s ends in a clean report", async (path) => {
    const response = await submit(`${target.url}${path}`);
    expect(response.statusCode).toBe(201);
    expect(Object.keys(response.json().data.results)).toHaveLength(checks.length);
    outcomes.push(`${path} 201`);
  });

  it("keeps the process's memory bounded", () => {
    const peakBytes = process.resourceUsage().maxRSS * 1024;
    // A 100 MiB body, a 200 MiB bomb and a 300,000-link page must not be held whole: the cap is 5 MiB.
    expect(peakBytes - startRss).toBeLessThan(768 * 1024 * 1024);
  });
});
