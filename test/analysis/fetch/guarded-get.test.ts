import { brotliCompressSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Analyzer } from "../../../src/analysis/analyse.js";
import { FetchFailure } from "../../../src/analysis/fetch/fetch-failure.js";
import { maxRedirectUrlLength } from "../../../src/analysis/fetch/guarded-get.js";
import { loadAnalysisConfig } from "../../../src/config.js";
import { html, type LocalServer, redirect, startServer } from "../../helpers/local-server.js";

const page = "<!doctype html><html lang=en><title>A page about testing</title><h1>Testing</h1></html>";

describe("fetching a page", () => {
  let server: LocalServer;
  let analyzer: Analyzer;

  beforeAll(async () => {
    const bomb = gzipSync(Buffer.alloc(50 * 1024 * 1024, " "));
    const routes: Parameters<typeof startServer>[0] = {
      "/": html(page),
      "/drip": (_request, response) => {
        response.setHeader("content-type", "text/html");
        response.write("<!doctype html><title>");
        const timer = setInterval(() => response.write("a"), 100);
        response.on("close", () => clearInterval(timer));
      },
      "/stall": () => {
        // never answers
      },
      "/bomb": (_request, response) => {
        response.setHeader("content-type", "text/html");
        response.setHeader("content-encoding", "gzip");
        response.end(bomb);
      },
      "/huge": (_request, response) => {
        response.setHeader("content-type", "text/html");
        response.end(Buffer.alloc(6 * 1024 * 1024, "a"));
      },
      "/png": (_request, response) => {
        response.setHeader("content-type", "image/png");
        response.end(Buffer.alloc(64));
      },
      "/gone": (_request, response) => {
        response.statusCode = 503;
        response.end("down");
      },
      "/brotli": (_request, response) => {
        response.setHeader("content-type", "text/html");
        response.setHeader("content-encoding", "br");
        response.end(brotliCompressSync(Buffer.from(page)));
      },
      "/latin1": (_request, response) => {
        response.setHeader("content-type", "text/html; charset=iso-8859-1");
        response.end(
          Buffer.from("<!doctype html><title>Caf\xe9 cr\xe8me menu</title><p>Caf\xe9</p>", "latin1"),
        );
      },
    };
    for (let hop = 1; hop <= 6; hop++) routes[`/chain/${hop}`] = redirect(`/chain/${hop + 1}`, 302);
    routes["/chain/7"] = html(page);
    routes["/loop"] = redirect("/loop");
    // 7,000 latin-1 bytes: a Location within the client's 16 KiB header limit whose target, percent-encoded, is not.
    routes["/long-redirect"] = redirect(`/${"\u00e9".repeat(7000)}`);
    server = await startServer(routes);
    analyzer = new Analyzer(
      loadAnalysisConfig({
        PAGEGRADE_ALLOW_PRIVATE_NETWORKS: "1",
        PAGEGRADE_FETCH_TIMEOUT_MS: "1000",
        PAGEGRADE_HEADERS_TIMEOUT_MS: "800",
      }),
    );
  });

  afterAll(async () => {
    await analyzer.close();
    await server.close();
  });

  const failureOf = async (path: string): Promise<FetchFailure> => {
    const error = await analyzer.analyse(`${server.url}${path}`).then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(FetchFailure);
    return error as FetchFailure;
  };

  it("stops a body that drips slowly at the deadline", async () => {
    const failure = await failureOf("/drip");
    expect(failure.reason).toBe("timeout");
    expect(failure.message).toBe("The server did not respond in time.");
  });

  it("stops a server that never answers", async () => {
    expect((await failureOf("/stall")).reason).toBe("timeout");
  });

  it("stops a compressed bomb at the decoded-size cap", async () => {
    const failure = await failureOf("/bomb");
    expect(failure.reason).toBe("too-large");
    expect(failure.message).toBe("The response is too large (more than 5 MiB).");
  });

  it("refuses a body over the cap", async () => {
    expect((await failureOf("/huge")).reason).toBe("too-large");
  });

  it("refuses what is not HTML", async () => {
    const failure = await failureOf("/png");
    expect(failure.reason).toBe("not-html");
    expect(failure.message).toBe("The URL is not an HTML page (it is image/png).");
  });

  it("reports the HTTP status of a failing page", async () => {
    const failure = await failureOf("/gone");
    expect(failure.reason).toBe("http-status");
    expect(failure.message).toBe("The server returned HTTP 503.");
  });

  it("refuses a chain of 6 redirects", async () => {
    const failure = await failureOf("/chain/1");
    expect(failure.reason).toBe("too-many-redirects");
  });

  it("follows a chain of 5 redirects and records every hop", async () => {
    const { report } = await analyzer.analyse(`${server.url}/chain/2`);
    expect(report.final_url).toBe(`${server.url}/chain/7`);
    const hops = report.results.redirects?.value as Array<{ status: number }>;
    expect(hops).toHaveLength(5);
    expect(report.results.redirects?.status).toBe("fail");
  });

  it(`follows no redirect to a target longer than ${maxRedirectUrlLength} characters`, async () => {
    const failure = await failureOf("/long-redirect");
    expect(failure.reason).toBe("http-status");
    expect(failure.message).toBe("The server returned HTTP 301.");
  });

  it("refuses a redirect loop", async () => {
    expect((await failureOf("/loop")).reason).toBe("too-many-redirects");
  });

  it("reports a refused connection without library text", async () => {
    const closed = await startServer();
    const url = closed.url;
    await closed.close();
    const error = await analyzer.analyse(`${url}/`).catch((caught: FetchFailure) => caught);
    expect((error as FetchFailure).reason).toBe("connection-failed");
    expect((error as FetchFailure).message).toBe("A connection to the server could not be established.");
  });

  it("decodes brotli and declared charsets", async () => {
    const brotli = await analyzer.analyse(`${server.url}/brotli`);
    expect(brotli.report.results["text-compression"]?.status).toBe("pass");
    expect(brotli.report.results["text-compression"]?.value).toBe("br");
    expect(brotli.report.results.title?.message).toContain("A page about testing");
    const latin1 = await analyzer.analyse(`${server.url}/latin1`);
    expect(latin1.report.results.title?.message).toContain("Café crème menu");
    expect(latin1.report.results.charset?.status).toBe("warn");
  });
});
