import { readdirSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AddressPolicy } from "../../src/analysis/fetch/address-policy.js";
import { ConnectionGuard } from "../../src/analysis/fetch/connection-guard.js";
import { FetchFailure } from "../../src/analysis/fetch/fetch-failure.js";
import { systemResolver } from "../../src/analysis/fetch/host-resolver.js";
import { parseDocument } from "../../src/analysis/parse.js";
import { BrowserPool } from "../../src/analysis/render/browser-pool.js";
import { ChromiumUnavailable } from "../../src/analysis/render/chromium-launch.js";
import { RenderFailure } from "../../src/analysis/render/render-page.js";
import { chromiumPath } from "../helpers/browser.js";
import { html, type LocalServer, redirect, startServer } from "../helpers/local-server.js";

/**
 * The browser pool with real Chromium: what a rendered page yields, the bound on pages at once, the per-page
 * caps, browser replacement (after its share of pages, and after its whole process is SIGKILLed mid-render), and
 * hostile pages (dialog loops, popup storms, busy loops, memory bombs) that fail their own render and leave the
 * next one unharmed.
 */
const goodPage = `<!doctype html><html lang="en"><head><title>Served title</title></head><body>
  <h1>Served heading</h1><img src="/missing.png" alt="">
  <script>
    document.title = "Rendered title";
    const link = document.createElement("a");
    link.href = "/added";
    link.textContent = "Added by script";
    document.body.append(link);
    console.error("a console error");
    setTimeout(() => { throw new Error("an uncaught exception"); }, 0);
  </script></body></html>`;

describe("browser pool", () => {
  let site: LocalServer;
  let pool: BrowserPool;
  let slowInFlight = 0;
  let slowPeak = 0;
  const slowWaiting: Array<() => void> = [];
  const hostileOutcomes: string[] = [];

  const guard = new ConnectionGuard(
    new AddressPolicy({ allowPrivateNetworks: false, allowedRanges: ["127.0.0.2"] }),
    systemResolver,
  );
  const newPool = (options: Partial<ConstructorParameters<typeof BrowserPool>[1]> = {}) =>
    new BrowserPool(guard, {
      executablePath: chromiumPath,
      // The test machines run as root, where Chromium has no sandbox; servers keep it on.
      sandbox: false,
      maxConcurrent: 2,
      deadlineMs: 8_000,
      settleMs: 1_000,
      ...options,
    });

  beforeAll(async () => {
    site = await startServer(
      {
        "/": html(goodPage, { "x-served-by": "test" }),
        "/moved": redirect("/", 301),
        "/error": (_request, response) => {
          response.statusCode = 500;
          response.setHeader("content-type", "text/html");
          response.end("<p>broken</p>");
        },
        "/plain": html("<title>plain</title><p>A plain page.</p>"),
        "/json": (_request, response) => {
          response.setHeader("content-type", "application/json");
          response.end("{}");
        },
        // Holds each page until a second one is being loaded too (then half a second more, in which a third
        // would show up if the pool allowed it), or six seconds: the peak is the number rendering at once,
        // however slowly this machine starts browsers.
        "/slow": (request, response) => {
          slowInFlight++;
          slowPeak = Math.max(slowPeak, slowInFlight);
          let released = false;
          const release = () => {
            if (released) return;
            released = true;
            clearTimeout(fallback);
            slowInFlight--;
            html("<title>slow</title>")(request, response);
          };
          const fallback = setTimeout(release, 6_000);
          slowWaiting.push(release);
          if (slowInFlight >= 2) {
            const batch = slowWaiting.splice(0);
            setTimeout(() => {
              for (const waiting of batch) waiting();
            }, 500);
          }
        },
        "/many": html(
          `<title>many</title>${Array.from({ length: 40 }, (_v, i) => `<img src="/img?${i}">`).join("")}`,
        ),
        "/heavy": html(
          `<title>heavy</title>${Array.from({ length: 8 }, (_v, i) => `<img src="/blob?${i}">`).join("")}`,
        ),
        "/blob": (_request, response) => {
          response.setHeader("content-type", "image/png");
          response.end(Buffer.alloc(512 * 1024, 1));
        },
        "/dialogs": html("<title>dialogs</title><script>for (;;) alert('again');</script>"),
        "/popups": html(
          "<title>popups</title><script>setInterval(() => { for (let i = 0; i < 20; i++) window.open('/'); }, 20);</script>",
        ),
        "/busy": html("<title>busy</title><script>for (;;) {}</script>"),
        "/memory": html(
          "<title>memory</title><script>const hoard = []; for (;;) hoard.push(new Array(1e6).fill(Math.random()));</script>",
        ),
      },
      { host: "127.0.0.2" },
    );
    pool = newPool();
  });

  afterAll(async () => {
    console.log(`render-pool: hostile pages ended as ${hostileOutcomes.join(", ")}`);
    await pool?.close();
    await site?.close();
  });

  it("renders a page: the script's document, the main response, failures, console problems, a screenshot", async () => {
    const page = await pool.render(new URL(`${site.url}/moved`));
    expect(page.finalUrl).toBe(`${site.url}/`);
    expect(page.main.status).toBe(200);
    expect(page.main.headers["x-served-by"]).toBe("test");
    expect(page.main.headers.connection).toBeUndefined();
    expect(page.main.redirects).toEqual([{ url: `${site.url}/moved`, status: 301, location: "/" }]);
    expect(page.main.protocol).toBe("http/1.1");
    expect(page.main.body.toString()).toBe(goodPage);

    // The rendered document parses into the same facts as a fetched one, with what the script changed.
    const document = parseDocument(page.html, page.finalUrl);
    expect(document.titles).toEqual(["Rendered title"]);
    expect(document.anchors.map((anchor) => anchor.text)).toContain("Added by script");

    expect(page.facts.failedRequests).toEqual([
      { url: `${site.url}/missing.png`, resourceType: "image", status: 404, error: null, blocked: false },
    ]);
    const problems = page.facts.consoleProblems.map((problem) => `${problem.kind}: ${problem.text}`);
    expect(problems).toContain("console-error: a console error");
    expect(problems).toContain("uncaught-exception: an uncaught exception");
    expect(page.facts.requestCount).toBeGreaterThanOrEqual(3);
    expect(page.facts.bytesReceived).toBeGreaterThan(goodPage.length);
    expect(page.facts.refusals).toEqual([]);

    const image = page.screenshot.data;
    expect(page.screenshot.mediaType).toBe("image/webp");
    expect(image.subarray(0, 4).toString()).toBe("RIFF");
    expect(image.subarray(8, 12).toString()).toBe("WEBP");
    expect(webpSize(image)).toEqual({ width: 412, height: 823 });
    expect(image.length).toBeLessThan(100 * 1024);

    expect(page.timing.firstContentfulPaintMs).toBeGreaterThan(0);
    expect(page.timing.loadMs).toBeGreaterThanOrEqual(page.timing.domContentLoadedMs);
  });

  it.each([
    ["/error", "http-status"],
    ["/json", "not-html"],
  ])("fails %s like a fetch would (%s)", async (path, reason) => {
    const error = await pool.render(new URL(`${site.url}${path}`)).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(FetchFailure);
    expect((error as FetchFailure).reason).toBe(reason);
  });

  it("renders no more pages at once than allowed", async () => {
    slowPeak = 0;
    const pages = await Promise.all(
      Array.from({ length: 4 }, () => pool.render(new URL(`${site.url}/slow`)).then((page) => page.finalUrl)),
    );
    expect(pages).toHaveLength(4);
    expect(slowPeak).toBe(2);
  });

  it("caps the requests and the bytes of one page", async () => {
    const capped = newPool({ maxRequests: 10, maxBytes: 1024 * 1024 });
    try {
      const many = await capped.render(new URL(`${site.url}/many`));
      expect(many.facts.limitReached).toBe("requests");
      expect(many.facts.failedRequests.some((failure) => failure.blocked)).toBe(true);
      const heavy = await capped.render(new URL(`${site.url}/heavy`));
      expect(heavy.facts.limitReached).toBe("bytes");
      expect(heavy.facts.bytesReceived).toBeLessThan(2 * 1024 * 1024);
    } finally {
      await capped.close();
    }
  });

  it("tells onPart each part of a render as it ends, in order (bench:render's CPU per part)", async () => {
    const parts: string[] = [];
    const told = newPool({ maxConcurrent: 1, onPart: (part) => parts.push(part) });
    try {
      await told.render(new URL(`${site.url}/plain`));
      expect(parts).toEqual(["open", "load", "settle", "trace", "document", "screenshot", "axe", "close"]);
    } finally {
      await told.close();
    }
  });

  it("replaces the browser after its share of pages", async () => {
    const short = newPool({ pagesPerBrowser: 2 });
    try {
      for (let round = 0; round < 5; round++) await short.render(new URL(`${site.url}/plain`));
      expect(short.launches).toBe(3);
    } finally {
      await short.close();
    }
  });

  it.each(["/dialogs", "/popups", "/busy", "/memory"])(
    "a hostile page (%s) fails or ends its own render only, within its deadline",
    async (path) => {
      const hostile = newPool({ deadlineMs: 6_000, jsHeapMiB: 128 });
      try {
        const started = performance.now();
        const outcome = await hostile
          .render(new URL(`${site.url}${path}`))
          .catch((caught: unknown) => caught);
        const elapsed = performance.now() - started;
        expect(elapsed).toBeLessThan(6_000 + 7_000);
        hostileOutcomes.push(
          `${path} ${outcome instanceof FetchFailure || outcome instanceof RenderFailure ? outcome.reason : "rendered"} in ${(elapsed / 1000).toFixed(1)} s`,
        );
        if (outcome instanceof Error) {
          expect(outcome instanceof FetchFailure || outcome instanceof RenderFailure, String(outcome)).toBe(
            true,
          );
        } else if (path === "/popups") {
          expect((outcome as { facts: { popups: number } }).facts.popups).toBeGreaterThan(0);
        }
        // The same pool renders the next page as if nothing had happened.
        const next = await hostile.render(new URL(`${site.url}/`));
        expect(next.main.status).toBe(200);
      } finally {
        await hostile.close();
      }
    },
  );

  it("survives its whole browser being SIGKILLed mid-render: that render fails, the next gets a new browser", async () => {
    const before = new Set(browserProcesses());
    const fragile = newPool({ maxConcurrent: 1 });
    try {
      await fragile.render(new URL(`${site.url}/plain`));
      const mine = browserProcesses().filter((pid) => !before.has(pid));
      expect(mine).toHaveLength(1);
      const rendering = fragile.render(new URL(`${site.url}/busy`)).catch((caught: unknown) => caught);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      for (const pid of mine) process.kill(pid, "SIGKILL");
      const outcome = await rendering;
      expect(outcome instanceof RenderFailure || outcome instanceof FetchFailure, String(outcome)).toBe(true);
      const next = await fragile.render(new URL(`${site.url}/plain`));
      expect(next.main.status).toBe(200);
      expect(fragile.launches).toBe(2);
    } finally {
      await fragile.close();
    }
  });

  it("says so when the server has no Chromium", async () => {
    const missing = newPool({ executablePath: "/nonexistent/chromium" });
    expect(missing.available).toBe(false);
    const error = await missing.render(new URL(`${site.url}/`)).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ChromiumUnavailable);
    expect((error as Error).message).toBe(
      "Rendered mode is unavailable: there is no Chromium where PAGEGRADE_CHROMIUM_PATH points.",
    );
    await missing.close();
  });
});

/** Width and height from a WebP file's first chunk (lossy VP8, lossless VP8L or extended VP8X). */
function webpSize(image: Buffer): { width: number; height: number } {
  const chunk = image.subarray(12, 16).toString();
  if (chunk === "VP8 ") {
    return { width: image.readUInt16LE(26) & 0x3fff, height: image.readUInt16LE(28) & 0x3fff };
  }
  if (chunk === "VP8L") {
    const bits = image.readUInt32LE(21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  return { width: image.readUIntLE(24, 3) + 1, height: image.readUIntLE(27, 3) + 1 };
}

/** The Chromium browser processes (not their renderers or helpers) this test process started. */
function browserProcesses(): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      const command = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
      if (
        parent === process.pid &&
        /chrom/.test(command[0] ?? "") &&
        !command.some((arg) => arg.startsWith("--type="))
      )
        pids.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return pids;
}
