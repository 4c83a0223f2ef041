import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AddressPolicy } from "../../src/analysis/fetch/address-policy.js";
import { ConnectionGuard } from "../../src/analysis/fetch/connection-guard.js";
import { systemResolver } from "../../src/analysis/fetch/host-resolver.js";
import { BrowserPool } from "../../src/analysis/render/browser-pool.js";
import { chromiumPath } from "../helpers/browser.js";
import { html, type LocalServer, startServer } from "../helpers/local-server.js";

/**
 * Lab metrics measured in real Chromium on small pages whose answers are known by construction: a large image
 * that arrives late is the LCP, a block pushed down by a known distance gives a known CLS, and a 200 ms busy
 * loop after the first paint blocks for 150 ms.
 */
const lateImageMs = 800;
// A 300×300 mosaic: Chromium leaves low-entropy images (a plain square, say) out of LCP.
const mosaic = `<svg xmlns="http://www.w3.org/2000/svg" width="300" height="300">${Array.from(
  { length: 225 },
  (_value, index) =>
    `<rect x="${(index % 15) * 20}" y="${Math.floor(index / 15) * 20}" width="20" height="20" fill="#${((index * 7919) % 0xffffff).toString(16).padStart(6, "0")}"/>`,
).join("")}</svg>`;

describe("lab metrics in Chromium", () => {
  let site: LocalServer;
  let pool: BrowserPool;

  beforeAll(async () => {
    site = await startServer(
      {
        "/lcp": html(
          `<!doctype html><title>lcp</title><p>A short line of text.</p><img src="/late.svg" width="300" height="300" alt="">`,
        ),
        "/late.svg": (_request, response) => {
          setTimeout(() => {
            response.setHeader("content-type", "image/svg+xml");
            response.end(mosaic);
          }, lateImageMs);
        },
        // A 412×200 block at the top is pushed down 100 px by content inserted above it: impact region
        // 412×300 of a 412×823 viewport, distance 100 of 823, so the shift scores (300/823)×(100/823).
        "/cls": html(`<!doctype html><title>cls</title><meta name="viewport" content="width=device-width">
          <style>body{margin:0}</style>
          <div id="box" style="width:412px;height:200px;background:teal">Moving text</div>
          <script>
            // Two frames after the first: the block has been laid out where it started.
            requestAnimationFrame(() => requestAnimationFrame(() => {
              const spacer = document.createElement("div");
              spacer.style.height = "100px";
              document.body.prepend(spacer);
            }));
          </script>`),
        // The same shift, 1.2 s after the document was parsed: after the load event, before the page is quiet.
        "/late-cls":
          html(`<!doctype html><title>late cls</title><meta name="viewport" content="width=device-width">
          <style>body{margin:0}</style>
          <div id="box" style="width:412px;height:200px;background:teal">Moving text</div>
          <script>
            setTimeout(() => {
              const spacer = document.createElement("div");
              spacer.style.height = "100px";
              document.body.prepend(spacer);
            }, 1200);
          </script>`),
        // A 700 ms task started 900 ms after the load event (within Lighthouse's 1 s pause after load, after a
        // 500 ms network quiet would have ended the trace): 650 ms of it blocks.
        "/late-tbt": html(`<!doctype html><title>late tbt</title><h1>Blocking after load</h1>
          <script>
            addEventListener("load", () => setTimeout(() => {
              const started = performance.now();
              while (performance.now() - started < 700) {}
            }, 900));
          </script>`),
        // Half a second in, the page sends itself to an address the guard refuses.
        "/escape": html(`<!doctype html><title>Stays here</title><h1>The page asked for</h1>
          <script>setTimeout(() => { location.href = "http://127.0.0.3:9/elsewhere"; }, 500);</script>`),
        "/tbt": html(`<!doctype html><title>tbt</title><h1>Blocking page</h1>
          <script>
            setTimeout(() => {
              const started = performance.now();
              while (performance.now() - started < 200) {}
            }, 300);
          </script>`),
      },
      { host: "127.0.0.2" },
    );
    pool = new BrowserPool(
      new ConnectionGuard(
        new AddressPolicy({ allowPrivateNetworks: false, allowedRanges: ["127.0.0.2"] }),
        systemResolver,
      ),
      // The test machines run as root, where Chromium has no sandbox; servers keep it on.
      { executablePath: chromiumPath, sandbox: false, maxConcurrent: 1 },
    );
  });

  afterAll(async () => {
    await pool?.close();
    await site?.close();
  });

  it("names the late large image as the LCP element, painted after it arrived", async () => {
    const { metrics } = await pool.render(new URL(`${site.url}/lcp`));
    expect(metrics?.firstContentfulPaintMs).toBeGreaterThan(0);
    expect(metrics?.firstContentfulPaintMs).toBeLessThan(lateImageMs);
    expect(metrics?.largestContentfulPaintMs).toBeGreaterThanOrEqual(lateImageMs);
    expect(metrics?.largestContentfulPaintType).toBe("image");
    expect(metrics?.largestContentfulPaintElement).toEqual({
      html: '<img src="/late.svg" width="300" height="300" alt>',
      imageUrl: "/late.svg",
    });
  });

  it("scores a known layout shift and names the element that moved", async () => {
    const { metrics } = await pool.render(new URL(`${site.url}/cls`));
    const expected = (300 / 823) * (100 / 823);
    expect(metrics?.cumulativeLayoutShift).toBeCloseTo(expected, 3);
    expect(metrics?.layoutShifts[0]?.elements[0]?.html).toBe(
      '<div id="box" style="width:412px;height:200px;background:teal">',
    );
  });

  it("counts a 200 ms task after the first paint as 150 ms of blocking time", async () => {
    const { metrics } = await pool.render(new URL(`${site.url}/tbt`));
    expect(metrics?.longTasks[0]?.durationMs).toBeGreaterThanOrEqual(200);
    const blocking = metrics?.totalBlockingTimeMs ?? 0;
    // At least the loop's 150 ms; a little more when the machine is busy and the task runs long.
    expect(blocking).toBeGreaterThanOrEqual(150);
    expect(blocking).toBeLessThan(150 + 150);
    expect(metrics?.interactiveMs).toBeGreaterThanOrEqual((metrics?.longTasks[0]?.startMs ?? 0) + 200);
  });

  it("waits, as Lighthouse does, for a layout shift 1.2 s after parsing", async () => {
    const { metrics } = await pool.render(new URL(`${site.url}/late-cls`));
    expect(metrics?.cumulativeLayoutShift).toBeCloseTo((300 / 823) * (100 / 823), 3);
    expect(metrics?.layoutShifts[0]?.atMs).toBeGreaterThanOrEqual(1200);
  });

  it("waits, as Lighthouse does, for a 700 ms task started after the load event: 650 ms of blocking", async () => {
    const { metrics } = await pool.render(new URL(`${site.url}/late-tbt`));
    expect(metrics?.longTasks[0]?.durationMs).toBeGreaterThanOrEqual(700);
    const blocking = metrics?.totalBlockingTimeMs ?? 0;
    // Lighthouse's 650 ms, less the trace's rounding of the loop's own 700 ms; a little more on a busy machine.
    expect(blocking).toBeGreaterThanOrEqual(640);
    expect(blocking).toBeLessThan(650 + 150);
  });

  it("keeps the page asked for when it later navigates to a refused address, listing that as blocked", async () => {
    const rendered = await pool.render(new URL(`${site.url}/escape`));
    expect(rendered.finalUrl).toBe(`${site.url}/escape`);
    expect(rendered.html).toContain("The page asked for");
    expect(rendered.facts.failedRequests).toContainEqual({
      url: "http://127.0.0.3:9/elsewhere",
      resourceType: "document",
      status: null,
      error: "net::ERR_ABORTED",
      blocked: true,
    });
    expect(rendered.facts.refusals).toContainEqual({
      target: "http://127.0.0.3:9/elsewhere",
      hostname: "127.0.0.3",
      reason: "private-address",
    });
  });
});
