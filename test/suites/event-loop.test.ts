/**
 * The event loop stays free while hostile input is read: the real service (its own process, started the way
 * `npm start` does), with /healthz asked every 50 ms. While a page on a host with the worst robots.txt (500 KiB of
 * wildcard rules) is analysed and that host is crawled with the worst sitemap (an unclosed `<loc>` before 10 MiB
 * of spaces), no answer takes more than 200 ms. While the worst page of each kind, each at the 5 MiB body cap, is
 * analysed through the API, all at once, no answer takes more than 200 ms either, and each page ends in a report
 * or in a clean 422 (`too-complex` when it goes past the analysis threads' limits). While a crawl reads 20
 * malformed 10 MiB sitemaps, and while it stores a page of 340,000 links, /healthz answers within 200 ms at the
 * 99th percentile (issue 37). npm run test:hostile.
 */
import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AccountService } from "../../src/accounts/account-service.js";
import { freshDatabase, type TestDatabase } from "../helpers/api.js";
import { type LocalServer, startServer } from "../helpers/local-server.js";
import { probeLoop } from "../helpers/loop-probe.js";
import { type ServiceProcess, startServiceProcess } from "../helpers/service-process.js";

const bodyCap = 5 * 1024 * 1024;
const stallBoundMs = 200;

/**
 * Sends a large body 64 KiB at a time, each slice once the socket has taken the last. (Before the probe had a
 * thread of its own, it ran on this process's event loop: a 5 MiB body written at once goes through loopback TCP inside one `writev` call, whose kernel
 * work (the receiving side's included) blocks this process's event loop, and seven of them at once held the
 * probe's answers for 200–450 ms on a slow machine, a stall of this process counted as the service's.)
 */
async function sentInSlices(response: ServerResponse, body: Buffer): Promise<void> {
  const slice = 64 * 1024;
  for (let start = 0; start < body.length; start += slice) {
    if (!response.write(body.subarray(start, start + slice))) {
      await new Promise((resolve) => response.once("drain", resolve));
    }
    if (response.destroyed) return;
  }
  response.end();
}

/** `open`, then `unit` as many times as fit under the body cap, then `close`. */
function atCap(open: string, unit: string, close: string): Buffer {
  const count = Math.floor((bodyCap - 1024 - open.length - close.length) / unit.length);
  return Buffer.from(open + unit.repeat(count) + close);
}

const head = (title: string, extra = "") =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>${extra}</head><body>`;

/** The worst page of each kind, each just under the body cap. */
const hostilePages: Record<string, Buffer> = {
  "huge-text": atCap(
    head("A very long page of text"),
    "<p>Plain words of a very long page, one paragraph after another, each saying the same.</p>\n",
    "</body></html>",
  ),
  "deep-nesting": atCap(head("Deeply nested markup"), "<div>", "deep</body></html>"),
  "many-elements": atCap(head("Hundreds of thousands of elements"), "<span>x</span>", "</body></html>"),
  "giant-json-ld": atCap(
    head(
      "Giant structured data",
      '<script type="application/ld+json">{"@context":"https://schema.org","@type":"ItemList","itemListElement":[',
    ),
    '{"@type":"ListItem","position":1,"name":"An item of a very long list","url":"https://example.com/item"},',
    '{"@type":"ListItem","position":2}]}</script></head><body><h1>Structured data</h1></body></html>',
  ),
  "giant-style-and-script": Buffer.concat([
    atCap(
      head("Giant inline style", "<style>"),
      ".rule-of-a-huge-sheet{color:#123456;margin:0}\n",
      "</style>",
    ).subarray(0, bodyCap / 2),
    atCap("", "var value = Math.max(1, 2) + 'a string of the script';\n", "").subarray(0, bodyCap / 2 - 2048),
    Buffer.from("</style><script>var end = 1;</script></head><body><h1>Inline</h1></body></html>"),
  ]),
  "many-images-and-links": atCap(
    head("Images and links"),
    '<a href="/page?id=1"><img src="/image.png" alt="" srcset="/image.png 1x, /image-2x.png 2x"></a>',
    "</body></html>",
  ),
  "long-attributes": atCap(
    head("Very long attribute values", '<meta name="description" content="'),
    "a long attribute value ",
    '"></head><body><a href="/" title="short">home</a></body></html>',
  ),
};

describe("the event loop under hostile pages", () => {
  let target: LocalServer;
  let database: TestDatabase;
  let service: ServiceProcess;
  let key: string;

  beforeAll(async () => {
    for (const [name, body] of Object.entries(hostilePages)) {
      expect(body.length, name).toBeLessThanOrEqual(bodyCap);
      expect(body.length, name).toBeGreaterThan(bodyCap - 64 * 1024);
    }
    target = await startServer({
      ...Object.fromEntries(
        Object.entries(hostilePages).map(([name, body]) => [
          `/${name}`,
          (_request: IncomingMessage, response: ServerResponse) => {
            response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
            void sentInSlices(response, body);
          },
        ]),
      ),
      // The first crawl reads a robots.txt and a sitemap (the first of each costs its code's loading).
      "/robots.txt": (_request, response) => {
        response.writeHead(200, { "content-type": "text/plain" });
        response.end(`User-agent: *\nAllow: /\nSitemap: ${target.url}/sitemap.xml\n`);
      },
      "/sitemap.xml": (_request, response) => {
        response.writeHead(200, { "content-type": "application/xml" });
        response.end(
          `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${target.url}/plain</loc></url></urlset>`,
        );
      },
      "/plain": (_request, response) => {
        response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        response.end(`${head("A plain page")}<h1>Plain</h1><p>Nothing hostile.</p></body></html>`);
      },
      // Over PAGEGRADE_THREAD_MIN_BYTES, so that its analysis runs on the analysis pool.
      "/plain-large": (_request, response) => {
        response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        response.end(
          `${head("A plain large page")}<h1>Plain</h1>${"<p>Nothing hostile, at length.</p>".repeat(4000)}</body></html>`,
        );
      },
    });
    database = await freshDatabase("sqlite");
    key = (
      await new AccountService(database.store).createUser(
        `${randomBytes(4).toString("hex")}@example.com`,
        null,
      )
    ).key;
    service = await startServiceProcess({
      DATABASE_URL: database.url,
      PAGEGRADE_ALLOW_PRIVATE_NETWORKS: "1",
      PAGEGRADE_RATE_LIMIT: "0",
      PAGEGRADE_ANALYSIS_RATE_LIMIT: "0",
      PAGEGRADE_MAX_CONCURRENT_ANALYSES: String(Object.keys(hostilePages).length),
      PAGEGRADE_FETCH_TIMEOUT_MS: "60000",
      PAGEGRADE_ANALYSIS_TIME_LIMIT_MS: "60000",
    });
    // A first analysis and a first crawl of a plain page, before any probe: what a process loads once, on its
    // first request of each kind, is its start-up, not the cost of what a hostile site sends. That includes the
    // analysis pool's processes (two by default), which the first large pages start: two at once start both.
    const asked = (path: string, body: unknown) =>
      fetch(`${service.url}/api/v1/${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    expect((await asked("reports", { url: `${target.url}/plain` })).status).toBe(201);
    const large = await Promise.all([1, 2].map(() => asked("reports", { url: `${target.url}/plain-large` })));
    expect(large.map((response) => response.status)).toEqual([201, 201]);
    const crawl = await asked("crawls", { url: `${target.url}/plain`, max_pages: 1, sitemaps: 1 });
    expect(crawl.status).toBe(202);
    const crawlId = ((await crawl.json()) as { data: { id: number } }).data.id;
    for (let status = "queued"; ["queued", "running"].includes(status); ) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const shown = await fetch(`${service.url}/api/v1/crawls/${crawlId}`, {
        headers: { authorization: `Bearer ${key}` },
      });
      status = ((await shown.json()) as { data: { status: string } }).data.status;
    }
  }, 60_000);

  afterAll(async () => {
    if (service && service.child.exitCode === null) {
      service.child.kill("SIGTERM");
      await service.exited;
    }
    await target?.close();
    await database?.drop();
  });

  it(`answers /healthz within ${stallBoundMs} ms while the worst robots.txt and sitemap are read`, async () => {
    // Rules that almost match a long path of "a"s, a dozen crawlers asking per analysis: a minute's work for a
    // backtracking matcher. The sitemap's unclosed <loc> cost a cubic regular expression 53 s at 4,000 spaces.
    const rules: string[] = [];
    let size = 20;
    for (let i = 0; size < 500 * 1024 - 300; i++) {
      rules.push(`Disallow: /${"*a".repeat(100)}*b${i}`);
      size += (rules.at(-1) as string).length + 1;
    }
    const path = `/${"a".repeat(1900)}`;
    const site: LocalServer = await startServer({
      [path]: (_request, response) => {
        response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        response.end(
          `${head("A page under hostile rules")}<h1>Rules</h1><p>Read by every crawler.</p></body></html>`,
        );
      },
      "/robots.txt": (_request, response) => {
        response.writeHead(200, { "content-type": "text/plain" });
        response.end(`User-agent: *\n${rules.join("\n")}\nSitemap: ${site.url}/sitemap.xml\n`);
      },
      "/sitemap.xml": (_request, response) => {
        response.writeHead(200, { "content-type": "application/xml" });
        response.end(hostileSitemap);
      },
    });
    const hostileSitemap = Buffer.concat([
      Buffer.from(
        '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>',
      ),
      Buffer.alloc(10 * 1024 * 1024 - 200, " "),
    ]);
    try {
      const probe = await probeLoop(service.url, 50);
      const analysis = await fetch(`${service.url}/api/v1/reports`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ url: `${site.url}${path}` }),
      });
      const crawl = await fetch(`${service.url}/api/v1/crawls`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ url: `${site.url}${path}`, max_pages: 5, sitemaps: 1 }),
      });
      expect(analysis.status).toBe(201);
      expect(crawl.status).toBe(202);
      const crawlId = ((await crawl.json()) as { data: { id: number } }).data.id;
      let status = "queued";
      for (const deadline = Date.now() + 120_000; Date.now() < deadline; ) {
        const shown = await fetch(`${service.url}/api/v1/crawls/${crawlId}`, {
          headers: { authorization: `Bearer ${key}` },
        });
        status = ((await shown.json()) as { data: { status: string } }).data.status;
        if (!["queued", "running"].includes(status)) break;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      const watched = await probe.stop(stallBoundMs);
      console.log(
        `event loop, robots.txt and sitemap: ${watched.samples} probes, slowest ${watched.maxMs.toFixed(0)} ms; crawl ${status}`,
      );
      expect(status).toBe("complete");
      expect(site.requests).toContain("/sitemap.xml");
      expect(watched.failures).toBe(0);
      expect(watched.slow).toEqual([]);
    } finally {
      await site.close();
    }
  });

  /** Starts a crawl through the API and waits for its end; its final status. */
  const crawledToEnd = async (body: Record<string, unknown>): Promise<string> => {
    const crawl = await fetch(`${service.url}/api/v1/crawls`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(crawl.status).toBe(202);
    const crawlId = ((await crawl.json()) as { data: { id: number } }).data.id;
    let status = "queued";
    for (const deadline = Date.now() + 120_000; Date.now() < deadline; ) {
      const shown = await fetch(`${service.url}/api/v1/crawls/${crawlId}`, {
        headers: { authorization: `Bearer ${key}` },
      });
      const data = ((await shown.json()) as { data: { status: string } }).data;
      status = data.status;
      if (status === "failed") console.log(`crawl ${crawlId} failed: ${JSON.stringify(data)}`);
      if (!["queued", "running"].includes(status)) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    return status;
  };

  it(`answers /healthz within ${stallBoundMs} ms while malformed sitemaps are read`, async () => {
    // Issue 37: 10 MiB of `&;` (or of control bytes) after an open <loc>, an error of the parser per token: a
    // file cost 25–81 s of CPU, a 1-page crawl took 131 s and /healthz answered in up to 1,678 ms. And billion
    // laughs, its last entity referred to for 10 MiB. A crawl reads up to 20 sitemaps: 20 of them here.
    const open =
      '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>http://H/';
    const laughs = `<!DOCTYPE urlset [<!ENTITY lol "lol">${Array.from({ length: 9 }, (_, level) => `<!ENTITY lol${level + 1} "${`&lol${level || ""};`.repeat(10)}">`).join("")}]>`;
    const fill = (head: string, unit: string) =>
      Buffer.from(head + unit.repeat(Math.floor((10 * 1024 * 1024 - 1024 - head.length) / unit.length)));
    const kinds = [
      fill(open, "&;"),
      fill(open, "\x01"),
      fill(`<?xml version="1.0"?>${laughs}${open.slice(21)}`, "&lol9;"),
    ];
    // As many as a crawl reads (20), each kind in turn.
    const sitemaps: Record<string, Buffer> = Object.fromEntries(
      Array.from({ length: 20 }, (_, i) => [`/sitemap-${i}.xml`, kinds[i % kinds.length] as Buffer]),
    );
    const site: LocalServer = await startServer({
      "/": (_request, response) => {
        response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        response.end(`${head("A page with bad sitemaps")}<h1>Sitemaps</h1></body></html>`);
      },
      "/robots.txt": (_request, response) => {
        response.writeHead(200, { "content-type": "text/plain" });
        response.end(
          `User-agent: *\nAllow: /\n${Object.keys(sitemaps)
            .map((path) => `Sitemap: ${site.url}${path}`)
            .join("\n")}\n`,
        );
      },
      ...Object.fromEntries(
        Object.entries(sitemaps).map(([path, body]) => [
          path,
          (_request: IncomingMessage, response: ServerResponse) => {
            response.writeHead(200, { "content-type": "application/xml" });
            void sentInSlices(response, body);
          },
        ]),
      ),
    });
    try {
      const probe = await probeLoop(service.url, 50);
      const started = performance.now();
      const status = await crawledToEnd({ url: `${site.url}/`, max_pages: 1, sitemaps: 1 });
      const seconds = (performance.now() - started) / 1000;
      const watched = await probe.stop(stallBoundMs);
      console.log(
        `event loop, malformed sitemaps: ${watched.samples} probes, slowest ${watched.maxMs.toFixed(0)} ms, ${watched.slow.length} over ${stallBoundMs} ms; crawl ${status} in ${seconds.toFixed(1)} s`,
      );
      expect(status).toBe("complete");
      for (const path of Object.keys(sitemaps)) expect(site.requests).toContain(path);
      expect(watched.failures).toBe(0);
      // At the 99th percentile (issue 37's bound): a sample in a hundred may be the machine's, not the service's.
      expect(watched.slow.length).toBeLessThanOrEqual(Math.floor(watched.samples / 100));
    } finally {
      await site.close();
    }
  });

  it(`answers /healthz within ${stallBoundMs} ms while a page of 340,000 links is crawled`, async () => {
    // Issue 37: a 4.7 MB page of 340,000 links stalled /healthz 0.76–1.76 s as a crawl stored what it found.
    const links = Buffer.from(
      `${head("A page of many links")}${Array.from({ length: 340_000 }, (_, i) => `<a href=/${i.toString(36)}>`).join("")}</body></html>`,
    );
    const site: LocalServer = await startServer({
      "/": (_request, response) => {
        response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        void sentInSlices(response, links);
      },
    });
    try {
      const probe = await probeLoop(service.url, 50);
      const started = performance.now();
      const status = await crawledToEnd({ url: `${site.url}/`, max_pages: 2, sitemaps: 0 });
      const seconds = (performance.now() - started) / 1000;
      const watched = await probe.stop(stallBoundMs);
      console.log(
        `event loop, 340,000 links: ${watched.samples} probes, slowest ${watched.maxMs.toFixed(0)} ms, ${watched.slow.length} over ${stallBoundMs} ms; crawl ${status} in ${seconds.toFixed(1)} s`,
      );
      expect(status).toBe("complete");
      expect(watched.failures).toBe(0);
      // At the 99th percentile (issue 37's bound): a sample in a hundred may be the machine's, not the service's.
      expect(watched.slow.length).toBeLessThanOrEqual(Math.floor(watched.samples / 100));
    } finally {
      await site.close();
    }
  });

  // Once, without retries: the stalls just over the bound that retries used to hide were this process's own
  // (serving the seven pages), counted as the service's while the probe shared its event loop. The probe now
  // has a thread of its own (test/helpers/loop-probe.ts).
  it(`answers /healthz within ${stallBoundMs} ms while the worst pages are analysed`, async () => {
    // The idle service first, for comparison (and so the probe's connection is open before anything counts).
    const idleProbe = await probeLoop(service.url, 50);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const idle = await idleProbe.stop();
    const probe = await probeLoop(service.url, 50);
    const outcomes = await Promise.all(
      Object.keys(hostilePages).map(async (name) => {
        const started = performance.now();
        const response = await fetch(`${service.url}/api/v1/reports`, {
          method: "POST",
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
          body: JSON.stringify({ url: `${target.url}/${name}` }),
        });
        const text = await response.text();
        const body = JSON.parse(text) as { data?: { score: number }; reason?: string };
        const seconds = ((performance.now() - started) / 1000).toFixed(1);
        return { name, status: response.status, reason: body.reason ?? null, seconds, bytes: text.length };
      }),
    );
    const watched = await probe.stop(stallBoundMs);
    console.log(
      `event loop: idle, slowest of ${idle.samples} probes ${idle.maxMs.toFixed(0)} ms; under load ${watched.samples} probes, slowest ${watched.maxMs.toFixed(0)} ms; ${outcomes
        .map(
          (outcome) =>
            `${outcome.name} ${outcome.status}${outcome.reason ? ` ${outcome.reason}` : ""} ${outcome.seconds} s ${Math.round(outcome.bytes / 1024)} KiB`,
        )
        .join(", ")}`,
    );
    for (const outcome of outcomes) {
      // The report stays small whatever the page held (a 5 MiB meta description is cut to 64 KiB).
      expect(outcome.bytes, outcome.name).toBeLessThan(256 * 1024);
      if (outcome.status !== 201)
        expect(outcome, outcome.name).toMatchObject({ status: 422, reason: "too-complex" });
    }
    expect(watched.failures).toBe(0);
    expect(watched.slow).toEqual([]);
    expect(watched.maxMs).toBeLessThanOrEqual(stallBoundMs);
  });
});
