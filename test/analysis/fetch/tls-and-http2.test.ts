import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createSecureServer, type Http2SecureServer } from "node:http2";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Analyzer } from "../../../src/analysis/analyse.js";
import { FetchFailure } from "../../../src/analysis/fetch/fetch-failure.js";
import { loadAnalysisConfig } from "../../../src/config.js";

/** A real TLS server on 127.0.0.1 that offers HTTP/2 (and HTTP/1.1), with a certificate made for the test. */
describe("HTTPS and HTTP/2", () => {
  let dir: string;
  let server: Http2SecureServer;
  let origin: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "pagegrade-tls-"));
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-days",
        "1",
        "-subj",
        "/CN=localhost",
        "-addext",
        "subjectAltName=DNS:localhost,IP:127.0.0.1",
        "-keyout",
        join(dir, "key.pem"),
        "-out",
        join(dir, "cert.pem"),
      ],
      { stdio: "ignore" },
    );
    server = createSecureServer(
      {
        key: readFileSync(join(dir, "key.pem")),
        cert: readFileSync(join(dir, "cert.pem")),
        allowHTTP1: true,
      },
      (request, response) => {
        if (request.url === "/") {
          response.setHeader("content-type", "text/html; charset=utf-8");
          response.setHeader("strict-transport-security", "max-age=63072000");
          response.end(
            "<!doctype html><html lang=en><title>Secure page over HTTP/2</title><h1>Secure</h1></html>",
          );
        } else {
          response.statusCode = 404;
          response.end();
        }
      },
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    origin = `https://localhost:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  });

  it("negotiates HTTP/2 and verifies the certificate against the host name", async () => {
    writeFileSync(join(dir, "ca.pem"), readFileSync(join(dir, "cert.pem")));
    const analyzer = new Analyzer(
      loadAnalysisConfig({
        PAGEGRADE_ALLOW_PRIVATE_NETWORKS: "1",
        PAGEGRADE_EXTRA_CA_FILE: join(dir, "ca.pem"),
      }),
    );
    try {
      const { report } = await analyzer.analyse(`${origin}/`);
      expect(report.results["modern-http"]?.status).toBe("pass");
      expect(report.results["modern-http"]?.value).toBe("h2");
      expect(report.results.https?.status).toBe("pass");
      expect(report.results.hsts?.value).toBe(63072000);
    } finally {
      await analyzer.close();
    }
  });

  it("refuses a certificate it cannot verify, without library text", async () => {
    const analyzer = new Analyzer(loadAnalysisConfig({ PAGEGRADE_ALLOW_PRIVATE_NETWORKS: "1" }));
    try {
      const error = await analyzer.analyse(`${origin}/`).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(FetchFailure);
      expect((error as FetchFailure).reason).toBe("connection-failed");
    } finally {
      await analyzer.close();
    }
  });
});
