/**
 * Keeps the page that was asked for once it has loaded: a later navigation of the main frame (a script setting
 * `location`, a meta refresh) to an address the guard refuses is aborted before it is sent, so Chromium does
 * not replace the document with its error page (chrome-error://chromewebdata/). Aborted navigations commit
 * nothing; the refused one is listed among the page's failed requests as blocked, as the proxy records it.
 * Navigations the guard admits go ahead as before.
 */
import type { CDPSession } from "playwright-core";
import type { GuardProxy } from "./guard-proxy.js";

export async function holdRefusedNavigations(cdp: CDPSession, proxy: GuardProxy): Promise<void> {
  const mainFrameId = (await cdp.send("Page.getFrameTree")).frameTree.frame.id;
  cdp.on("Fetch.requestPaused", (paused) => {
    void (async () => {
      const { requestId } = paused;
      let url: URL | null = null;
      try {
        url = new URL(paused.request.url);
      } catch {
        // Chromium's own business (not a URL the proxy would see).
      }
      const refused =
        paused.frameId === mainFrameId && url && /^(http|ws)s?:$/.test(url.protocol)
          ? await proxy.refusalOf(url)
          : null;
      if (refused) await cdp.send("Fetch.failRequest", { requestId, errorReason: "Aborted" });
      else await cdp.send("Fetch.continueRequest", { requestId });
    })().catch(() => {
      // The page or its session closed meanwhile.
    });
  });
  await cdp.send("Fetch.enable", {
    patterns: [{ urlPattern: "*", resourceType: "Document", requestStage: "Request" }],
  });
}
