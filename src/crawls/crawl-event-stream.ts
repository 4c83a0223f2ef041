/**
 * A crawl's progress as a `text/event-stream`, for the API (`GET /api/v1/crawls/{id}/events`) and the crawl page
 * (`GET /crawls/{id}/events`): a `progress` event whenever its counts change, a keep-alive comment when nothing
 * has for a while, and a last event named after how it ended (`complete`, `cancelled`, `failed`; `cancelled` too
 * when it is deleted meanwhile). Each event carries the crawl's summary (`crawlSummaryObject`: counts, never a
 * list crawl's URLs), so an event is small whatever the crawl. The stream polls the crawl's row and ends with the
 * service (`closing`); the caller holds the user's stream quota and passes its release, and hands over the raw
 * request and response (a fastify route hijacks its reply first).
 *
 * Back-pressure: while the client has not read what was written (the socket's buffer is full, `write` returned
 * false), no event is written; the stream keeps only the crawl's latest state and writes it once the client reads
 * again (progress events coalesce into the latest). So an unread stream holds at most one event beyond what the
 * socket buffers. A client that reads nothing for `stalledMs` is disconnected, which gives back its stream place.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { CrawlSummaryRow } from "./crawl-store.js";
import { crawlSummaryObject } from "./present.js";

/** How often the event stream looks at the crawl, and how often it sends a keep-alive comment. */
const defaultPollMs = 400;
const keepAliveMs = 15_000;
/** How long a client may leave what was written unread before the stream drops its connection. */
export const stalledMs = 60_000;

export interface CrawlEventStreamOptions {
  /** The crawl as it is now (without its URL list), or undefined once deleted. */
  reload: () => Promise<CrawlSummaryRow | undefined>;
  closing: AbortSignal;
  release: () => void;
  /** How often the crawl is looked at (tests shorten it); 400 ms. */
  pollMs?: number;
  /** How long the client may leave what was written unread before it is disconnected; `stalledMs`. */
  unreadForMs?: number;
}

export async function streamCrawlEvents(
  request: IncomingMessage,
  response: ServerResponse,
  requestId: string,
  { reload, closing, release, pollMs = defaultPollMs, unreadForMs = stalledMs }: CrawlEventStreamOptions,
): Promise<void> {
  response.writeHead(200, {
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
    "x-request-id": requestId,
    // A stream's connection is not reused: closed with the stream, it cannot hold the service's close.
    connection: "close",
  });
  try {
    let closed = false;
    request.on("close", () => {
      closed = true;
    });
    response.on("close", () => {
      closed = true;
    });
    /** Since when the client has left what was written unread; null while it keeps up. */
    let unreadSince: number | null = null;
    response.on("drain", () => {
      unreadSince = null;
    });
    const write = (text: string) => {
      if (!response.write(text)) unreadSince ??= Date.now();
    };
    const send = (event: string, crawl: CrawlSummaryRow) =>
      write(`event: ${event}\ndata: ${JSON.stringify(crawlSummaryObject(crawl))}\n\n`);
    let last = "";
    let lastWrite = Date.now();
    let crawl: CrawlSummaryRow | undefined = await reload();
    let seen: CrawlSummaryRow | undefined = crawl;
    // The stream ends when the service shuts down, so it never holds the close.
    while (!closed && !closing.aborted) {
      if (!crawl) {
        // Deleted meanwhile (a delete cancels a running crawl): the stream still ends with its final event.
        if (seen) {
          send("cancelled", {
            ...seen,
            status: seen.status === "running" || seen.status === "queued" ? "cancelled" : seen.status,
          });
        }
        break;
      }
      seen = crawl;
      if (["complete", "cancelled", "failed"].includes(crawl.status)) {
        send(crawl.status, crawl);
        break;
      }
      if (unreadSince !== null) {
        // The client is not reading: nothing more is buffered for it (the next event written is the latest
        // state), and past `stalledMs` it is let go.
        if (Date.now() - unreadSince > unreadForMs) {
          response.destroy();
          break;
        }
      } else {
        const counts = JSON.stringify([
          crawl.status,
          crawl.discovered,
          crawl.analysed,
          crawl.failed,
          crawl.excluded,
          crawl.urls_dropped,
          crawl.links_dropped,
        ]);
        if (counts !== last) {
          send("progress", crawl);
          last = counts;
          lastWrite = Date.now();
        } else if (Date.now() - lastWrite > keepAliveMs) {
          write(": keep-alive\n\n");
          lastWrite = Date.now();
        }
      }
      await new Promise((resolve) => setTimeout(resolve, pollMs));
      crawl = await reload();
    }
    if (!response.destroyed) response.end();
  } finally {
    release();
  }
}
