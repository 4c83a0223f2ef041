/**
 * The crawl event stream under back-pressure, over a real connection on 127.0.0.1 whose client never reads: the
 * crawl's counts change at every look (every millisecond here), yet the server holds at most the socket's
 * buffer and one event for it (events coalesce into the latest state instead of piling up), sends the latest
 * state once the client reads again, and disconnects a client that leaves it unread past the bound, giving the
 * stream's place back.
 */
import { createServer, type Server, type ServerResponse } from "node:http";
import { connect, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { streamCrawlEvents } from "../../src/crawls/crawl-event-stream.js";
import type { CrawlSummaryRow } from "../../src/crawls/crawl-store.js";

/**
 * A running crawl whose `analysed` count is `n`, with its settings at their largest (40 patterns of 200
 * characters, 10 rules of 500): an event of about 14 KB, so the socket's buffers fill within a second.
 */
const patterns = JSON.stringify(Array.from({ length: 20 }, (_, n) => `/${n}/${"p".repeat(196)}`));
const rules = JSON.stringify(
  Array.from({ length: 10 }, (_, n) => ({ name: `r${n}`, selector: "p".repeat(500) })),
);

function runningCrawl(n: number): CrawlSummaryRow {
  return {
    id: 1,
    user_id: 1,
    team_id: null,
    url: "https://example.com/",
    url_count: null,
    project: "example.com",
    status: "running",
    max_pages: 1_000_000,
    max_depth: 10,
    sitemaps: 0,
    include: patterns,
    exclude: patterns,
    mode: "raw",
    privacy: 1,
    schedule: "off",
    discovered: n,
    analysed: n,
    failed: 0,
    excluded: 0,
    score: null,
    result: null,
    issues_high: 0,
    issues_medium: 0,
    issues_low: 0,
    cancel_requested: 0,
    seeded: 1,
    started_at: "2026-01-01T00:00:00.000Z",
    finished_at: null,
    next_run_at: null,
    parts: 2,
    reserved: n,
    next_request_ms: 0,
    seed_lease_until: null,
    finish_lease_until: null,
    urls_offered: n,
    urls_dropped: 0,
    links_offered: 0,
    links_dropped: 0,
    error: null,
    header_names: "[]",
    extract: rules,
    checks_recorded: 1,
    not_reached: 0,
    created_at: "2026-01-01T00:00:00.000Z",
    updated_at: "2026-01-01T00:00:00.000Z",
  };
}

describe("the crawl event stream's back-pressure", () => {
  const closers: Array<() => void> = [];
  afterEach(() => {
    for (const close of closers.splice(0)) close();
  });

  async function serve(unreadForMs: number) {
    let looks = 0;
    let released = 0;
    let response: ServerResponse | undefined;
    const closing = new AbortController();
    const server: Server = createServer((request, reply) => {
      response = reply;
      void streamCrawlEvents(request, reply, "test", {
        reload: async () => runningCrawl(++looks),
        closing: closing.signal,
        release: () => released++,
        pollMs: 1,
        unreadForMs,
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    closers.push(() => {
      closing.abort();
      server.closeAllConnections();
      server.close();
    });
    const socket: Socket = connect({ host: "127.0.0.1", port }, () => {
      socket.write("GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
      socket.pause();
    });
    socket.on("error", () => {});
    closers.push(() => socket.destroy());
    return {
      socket,
      looks: () => looks,
      released: () => released,
      buffered: () => response?.writableLength ?? 0,
      destroyed: () => response?.destroyed ?? false,
    };
  }

  it("holds at most the socket's buffer and one event for a client that does not read, then sends the latest", async () => {
    const stream = await serve(60_000);
    let most = 0;
    const until = Date.now() + 3_000;
    while (Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      most = Math.max(most, stream.buffered());
    }
    // Over a thousand changed counts went by; without back-pressure each was a 14 KB event in the buffer (tens
    // of MB): with it, the buffer holds what the socket's high-water mark lets in and one event more.
    expect(stream.looks()).toBeGreaterThan(1_000);
    expect(most).toBeLessThan(16 * 1024 + 2 * 14 * 1024);
    // Read again: the stream goes on with the latest state, not the backlog.
    let text = "";
    stream.socket.on("data", (chunk: Buffer) => {
      text += chunk.toString();
    });
    stream.socket.resume();
    const seenAt = stream.looks();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const analysed = [...text.matchAll(/"analysed":(\d+)/g)].map((match) => Number(match[1]));
    expect(Math.max(...analysed)).toBeGreaterThanOrEqual(seenAt);
  });

  it("disconnects a client that leaves it unread past the bound, and gives its place back", async () => {
    const stream = await serve(300);
    const ended = new Promise<void>((resolve) => stream.socket.on("close", () => resolve()));
    const until = Date.now() + 8_000;
    while (!stream.destroyed() && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(stream.destroyed()).toBe(true);
    expect(stream.released()).toBe(1);
    stream.socket.resume();
    await ended;
  });
});
