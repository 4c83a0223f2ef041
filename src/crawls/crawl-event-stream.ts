/**
 * A crawl's progress as a `text/event-stream`, for the API (`GET /api/v1/crawls/{id}/events`) and the crawl page
 * (`GET /crawls/{id}/events`): a `progress` event whenever its counts change, a keep-alive comment when nothing
 * has for a while, and a last event named after how it ended (`complete`, `cancelled`, `failed`; `cancelled` too
 * when it is deleted meanwhile). The stream polls the crawl's row and ends with the service (`closing`); the
 * caller holds the user's stream quota and passes its release, and hands over the raw request and response (a
 * fastify route hijacks its reply first).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { CrawlRow } from "./crawl-store.js";
import { crawlObject } from "./present.js";

/** How often the event stream looks at the crawl, and how often it sends a keep-alive comment. */
const pollMs = 400;
const keepAliveMs = 15_000;

export interface CrawlEventStreamOptions {
  first: CrawlRow;
  /** The crawl as it is now, or undefined once deleted. */
  reload: () => Promise<CrawlRow | undefined>;
  closing: AbortSignal;
  release: () => void;
}

export async function streamCrawlEvents(
  request: IncomingMessage,
  response: ServerResponse,
  requestId: string,
  { first, reload, closing, release }: CrawlEventStreamOptions,
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
    const send = (event: string, crawl: CrawlRow) =>
      response.write(`event: ${event}\ndata: ${JSON.stringify(crawlObject(crawl))}\n\n`);
    let last = "";
    let lastWrite = Date.now();
    let crawl: CrawlRow | undefined = first;
    let seen: CrawlRow = first;
    // The stream ends when the service shuts down, so it never holds the close.
    while (!closed && !closing.aborted) {
      if (!crawl) {
        // Deleted meanwhile (a delete cancels a running crawl): the stream still ends with its final event.
        send("cancelled", {
          ...seen,
          status: seen.status === "running" || seen.status === "queued" ? "cancelled" : seen.status,
        });
        break;
      }
      seen = crawl;
      const counts = JSON.stringify([
        crawl.status,
        crawl.discovered,
        crawl.analysed,
        crawl.failed,
        crawl.excluded,
        crawl.urls_dropped,
        crawl.links_dropped,
      ]);
      if (["complete", "cancelled", "failed"].includes(crawl.status)) {
        send(crawl.status, crawl);
        break;
      }
      if (counts !== last) {
        send("progress", crawl);
        last = counts;
        lastWrite = Date.now();
      } else if (Date.now() - lastWrite > keepAliveMs) {
        response.write(": keep-alive\n\n");
        lastWrite = Date.now();
      }
      await new Promise((resolve) => setTimeout(resolve, pollMs));
      crawl = await reload();
    }
    response.end();
  } finally {
    release();
  }
}
