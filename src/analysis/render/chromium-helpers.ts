/**
 * What every user of Chromium shares (rendered mode's browser pool, the report PDFs, the Lighthouse bench's page
 * probe): the mobile context a page is loaded in, the proxy that refuses everything outside a page's own
 * context, and a context that must close in time (runtime/deadline.ts bounds the rest of the work Chromium may never
 * finish).
 */
import type { BrowserContext, BrowserContextOptions } from "playwright-core";
import { settlesWithin } from "../../runtime/deadline.js";
import type { VettedAddress } from "../fetch/connection-guard.js";
import { failures } from "../fetch/fetch-failure.js";
import { GuardProxy, type Vetter } from "./guard-proxy.js";

/** A mid-range phone, as Lighthouse's mobile emulation (412×823 CSS pixels at 1.75 device pixels each). */
export const viewport = { width: 412, height: 823 };
export const deviceScaleFactor = 1.75;

/** A context on that phone whose every connection goes through the page's own guard proxy. */
export function mobileContextOptions(proxyUrl: string): BrowserContextOptions {
  return {
    proxy: { server: proxyUrl, bypass: "<-loopback>" },
    viewport,
    screen: viewport,
    deviceScaleFactor,
    isMobile: true,
    hasTouch: true,
  };
}

/** A guard that lets nothing through: for what the browser sends outside a page's own context. */
export const refuseEverything: Vetter = {
  vet: (): Promise<VettedAddress> => Promise.reject(failures.privateAddress()),
};

/** The browser-wide fallback proxy: every request that reaches it is refused. */
export function startRefusingProxy(): Promise<GuardProxy> {
  return GuardProxy.start(refuseEverything, { maxRequests: 0, maxBytes: 0, connectTimeoutMs: 1 });
}

const contextCloseMs = 5_000;

/** Closes the context; false when it did not close in time (its browser no longer answers: replace it). */
export function closesInTime(context: BrowserContext | null): Promise<boolean> {
  return context ? settlesWithin(context.close(), contextCloseMs) : Promise.resolve(true);
}
