/**
 * What Chromium shows of a page, read the way Lighthouse's SEO gatherers read it, so a disagreement's cause can
 * be checked on the page itself: every <a> with its attributes, its innerText (rendered text: nothing a
 * stylesheet hides), the language Lighthouse would detect for it, and the element whose computed style hides it;
 * the <title> elements and the meta descriptions with where the parser put them. The browser goes out through a
 * GuardProxy like rendered mode's, so it meets the page's external hosts refused the same way.
 */
import type { Browser, CDPSession } from "playwright-core";
import { AddressPolicy } from "../src/analysis/fetch/address-policy.js";
import { ConnectionGuard } from "../src/analysis/fetch/connection-guard.js";
import { systemResolver } from "../src/analysis/fetch/host-resolver.js";
import { mobileContextOptions, startRefusingProxy } from "../src/analysis/render/chromium-helpers.js";
import { launchChromium } from "../src/analysis/render/chromium-launch.js";
import { GuardProxy } from "../src/analysis/render/guard-proxy.js";
import { chromiumPath } from "../test/helpers/browser.js";

export interface ProbedAnchor {
  /** The start tag as written in the DOM, cut at 200 characters. */
  html: string;
  /** The href attribute ("" when absent, as Lighthouse records it) and its resolution ("" when absent). */
  rawHref: string;
  href: string;
  hasHref: boolean;
  /** innerText: the text as rendered, without what a stylesheet hides. */
  renderedText: string;
  textContent: string;
  /** The language Lighthouse's gatherer would give the link's text: the document's only lang, else the nearest. */
  textLang: string | null;
  rel: string;
  id: string;
  name: string;
  role: string;
  attributeNames: string[];
  /** The nearest element (itself or an ancestor) whose computed style hides it, with the property; else null. */
  hiddenBy: string | null;
  /**
   * Event listeners on an <a> without href and on its ancestors (what Lighthouse asks DevTools for), as types;
   * empty for links with an href, where Lighthouse does not look at them.
   */
  listeners: Array<{ type: string }>;
  ancestorListeners: Array<{ type: string }>;
}

export interface PageFacts {
  anchors: ProbedAnchor[];
  documentTitle: string;
  titles: string[];
  metaDescriptions: Array<{ content: string | null; inHead: boolean }>;
}

/** Runs in the page: plain JavaScript, kept in a string so the bundler leaves it as written. */
const collectFacts = `(() => {
  const startTag = (element) => element.outerHTML.slice(0, element.outerHTML.indexOf(">") + 1).slice(0, 200);
  const langs = [...document.querySelectorAll("[lang]")];
  const single = langs.length === 1 && (langs[0].nodeName === "HTML" || langs[0].nodeName === "BODY")
    ? langs[0].getAttribute("lang") : null;
  const hiddenBy = (element) => {
    for (let node = element; node && node.nodeType === 1; node = node.parentElement) {
      const style = getComputedStyle(node);
      if (style.display === "none") return startTag(node) + " display:none";
      if (style.visibility === "hidden" && node === element) return startTag(node) + " visibility:hidden";
    }
    return null;
  };
  const anchors = [...document.querySelectorAll("a")].map((a) => ({
    html: startTag(a),
    rawHref: a.getAttribute("href") || "",
    href: a instanceof HTMLAnchorElement ? a.href : "",
    hasHref: a.hasAttribute("href"),
    renderedText: a instanceof HTMLElement ? a.innerText : a.textContent || "",
    textContent: a.textContent || "",
    textLang: single ?? a.closest("[lang]")?.getAttribute("lang") ?? null,
    rel: a.getAttribute("rel") || "",
    id: a.getAttribute("id") || "",
    name: a.getAttribute("name") || "",
    role: a.getAttribute("role") || "",
    attributeNames: a.getAttributeNames(),
    hiddenBy: hiddenBy(a),
    listeners: [],
    ancestorListeners: [],
  }));
  return {
    anchors,
    documentTitle: document.title,
    titles: [...document.querySelectorAll("title")].map((title) => title.textContent || ""),
    metaDescriptions: [...document.querySelectorAll('meta[name="description" i]')].map((meta) => ({
      content: meta.getAttribute("content"),
      inHead: meta.parentElement === document.head,
    })),
  };
})()`;

/** Links without href whose listeners are looked up, per page at most (a round trip per ancestor each). */
const maxListenerLookups = 300;

/** The event listeners on the element an expression names; null when it names none. */
async function listenersOf(cdp: CDPSession, expression: string): Promise<Array<{ type: string }> | null> {
  const { result } = await cdp.send("Runtime.evaluate", { expression });
  if (!result.objectId) return null;
  const { listeners } = await cdp.send("DOMDebugger.getEventListeners", { objectId: result.objectId });
  return listeners.map(({ type }) => ({ type }));
}

/** The limits rendered mode gives a page (BrowserPool's defaults). */
const pageLimits = { maxRequests: 500, maxBytes: 50 * 1024 * 1024, connectTimeoutMs: 5_000 };

export class PageProbe {
  private constructor(
    private readonly browser: Browser,
    private readonly guard: ConnectionGuard,
    private readonly fallbackProxy: GuardProxy,
  ) {}

  /** Starts Chromium; each page then goes out through a proxy of its own that reaches 127.0.0.1 only. */
  static async start(): Promise<PageProbe> {
    const guard = new ConnectionGuard(
      new AddressPolicy({ allowPrivateNetworks: false, allowedRanges: ["127.0.0.1"] }),
      systemResolver,
    );
    // Whatever the browser sends outside a page's own context is refused.
    const fallbackProxy = await startRefusingProxy();
    const browser = await launchChromium({
      executablePath: chromiumPath,
      sandbox: process.getuid?.() !== 0,
      fallbackProxyUrl: fallbackProxy.url,
      jsHeapMiB: 512,
    });
    return new PageProbe(browser, guard, fallbackProxy);
  }

  /** Loads the page (rendered mode's and Lighthouse's mobile viewport), lets it run until load, reads the facts. */
  async inspect(url: string): Promise<PageFacts> {
    const proxy = await GuardProxy.start(this.guard, pageLimits);
    const context = await this.browser.newContext(mobileContextOptions(proxy.url));
    try {
      const page = await context.newPage();
      await page.goto(url, { waitUntil: "load", timeout: 60_000 });
      const facts = (await page.evaluate(collectFacts)) as PageFacts;
      const cdp = await context.newCDPSession(page);
      let lookups = 0;
      for (const [index, anchor] of facts.anchors.entries()) {
        if (anchor.hasHref || lookups++ >= maxListenerLookups) continue;
        anchor.listeners = (await listenersOf(cdp, `document.querySelectorAll("a")[${index}]`)) ?? [];
        const ancestors = new Map<string, { type: string }>();
        for (let up = "parentElement"; ; up += ".parentElement") {
          const found = await listenersOf(cdp, `document.querySelectorAll("a")[${index}].${up}`);
          if (found === null) break;
          for (const listener of found) ancestors.set(listener.type, listener);
        }
        anchor.ancestorListeners = [...ancestors.values()];
      }
      return facts;
    } finally {
      await context.close();
      await proxy.close();
    }
  }

  async close(): Promise<void> {
    await this.browser.close();
    await this.fallbackProxy.close();
  }
}
