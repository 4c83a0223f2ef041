/**
 * zstd responses, on runtimes whose zlib has zstd (Node.js 22.15 and later): asked for in Accept-Encoding,
 * decoded under the same size cap as the other codings, and seen by the text-compression check. On older
 * runtimes the suite is skipped and its title says why.
 */
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Analyzer } from "../../../src/analysis/analyse.js";
import { acceptedEncodings, zstdSupported } from "../../../src/analysis/fetch/content-decoding.js";
import type { FetchFailure } from "../../../src/analysis/fetch/fetch-failure.js";
import { loadAnalysisConfig } from "../../../src/config.js";
import type { LocalServer } from "../../helpers/local-server.js";
import { startServer } from "../../helpers/local-server.js";

const zstdCompress = (zlib as unknown as { zstdCompressSync?: (input: Buffer) => Buffer }).zstdCompressSync;

const title = zstdSupported
  ? `zstd responses (Node.js ${process.versions.node})`
  : `zstd responses: skipped, Node.js ${process.versions.node} has no zstd in zlib (it arrives in 22.15)`;

// Long enough that text-compression judges it (it is "na" under 1 KiB).
const page = `<!doctype html><html lang=en><title>Compressed with zstd</title><h1>zstd</h1>${"<p>Plenty of words to compress. ".repeat(100)}</html>`;

// A skipped suite's title is not printed by the default reporter, so the reason is said out loud too.
if (!zstdSupported) console.warn(title);

describe.skipIf(!zstdSupported)(title, () => {
  let server: LocalServer;
  let analyzer: Analyzer;
  const acceptEncodings: string[] = [];

  beforeAll(async () => {
    const compress = zstdCompress as (input: Buffer) => Buffer;
    const bomb = compress(Buffer.alloc(50 * 1024 * 1024, " "));
    server = await startServer({
      "/": (request, response) => {
        acceptEncodings.push(String(request.headers["accept-encoding"]));
        response.setHeader("content-type", "text/html; charset=utf-8");
        response.setHeader("content-encoding", "zstd");
        response.end(compress(Buffer.from(page)));
      },
      "/bomb": (_request, response) => {
        response.setHeader("content-type", "text/html");
        response.setHeader("content-encoding", "zstd");
        response.end(bomb);
      },
      "/garbage": (_request, response) => {
        response.setHeader("content-type", "text/html");
        response.setHeader("content-encoding", "zstd");
        response.end(Buffer.from("this is not a zstd frame"));
      },
    });
    analyzer = new Analyzer(loadAnalysisConfig({ PAGEGRADE_ALLOW_PRIVATE_NETWORKS: "1" }));
  });

  afterAll(async () => {
    await analyzer?.close();
    await server?.close();
  });

  it("asks for zstd", () => {
    expect(acceptedEncodings.split(", ")).toContain("zstd");
  });

  it("decodes a zstd page and the text-compression check sees zstd", async () => {
    const { report } = await analyzer.analyse(`${server.url}/`);
    expect(acceptEncodings[0]).toContain("zstd");
    expect(report.results["text-compression"]?.status).toBe("pass");
    expect(report.results["text-compression"]?.value).toBe("zstd");
    expect(report.results.title?.message).toContain("Compressed with zstd");
  });

  it("stops a zstd bomb at the size cap", async () => {
    const failure = await analyzer.analyse(`${server.url}/bomb`).catch((caught: FetchFailure) => caught);
    expect((failure as FetchFailure).reason).toBe("too-large");
  });

  it("refuses a body that is not zstd", async () => {
    const failure = await analyzer.analyse(`${server.url}/garbage`).catch((caught: FetchFailure) => caught);
    expect((failure as FetchFailure).reason).toBe("invalid-response");
  });
});
