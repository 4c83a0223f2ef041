/**
 * A crawl's own request headers in the browser: every request of the page (its document, subresources, frames
 * in its process, every redirect hop) is paused before it is sent, on a DevTools session of its own, and
 * continued with the headers `headersFor` gives its URL (the crawl's hosts only). A request to any other host
 * goes on without them, and a redirect from a crawl's host to another host has them taken off again, should
 * Chromium carry them over to the next hop. Frames of other sites run in processes of their own that this
 * session does not pause: none of their requests gets the headers.
 */
import type { BrowserContext, Page } from "playwright-core";

export type HeadersFor = (url: URL) => Record<string, string>;

export async function addSiteHeaders(
  context: BrowserContext,
  page: Page,
  pageUrl: URL,
  headersFor: HeadersFor,
): Promise<void> {
  const names = new Set(Object.keys(headersFor(pageUrl)).map((name) => name.toLowerCase()));
  if (names.size === 0) return;
  const cdp = await context.newCDPSession(page);
  cdp.on("Fetch.requestPaused", (paused) => {
    const { requestId } = paused;
    let own: Record<string, string> = {};
    try {
      own = headersFor(new URL(paused.request.url));
    } catch {
      // Not a URL of the web (data:, blob:): nothing of the crawl's.
    }
    const kept = Object.entries(paused.request.headers).filter(([name]) => !names.has(name.toLowerCase()));
    const carriesOwn = kept.length !== Object.keys(paused.request.headers).length;
    const continued =
      Object.keys(own).length === 0 && !carriesOwn
        ? cdp.send("Fetch.continueRequest", { requestId })
        : cdp.send("Fetch.continueRequest", {
            requestId,
            headers: [...kept, ...Object.entries(own)].map(([name, value]) => ({ name, value })),
          });
    continued.catch(() => {
      // The page or its session closed meanwhile.
    });
  });
  await cdp.send("Fetch.enable", { patterns: [{ urlPattern: "*", requestStage: "Request" }] });
}
