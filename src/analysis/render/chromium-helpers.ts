/**
 * What every user of Chromium shares (rendered mode's browser pool, the report PDFs, the Lighthouse bench's page
 * probe): the mobile context a page is loaded in, the proxy that refuses everything outside a page's own
 * context, and the time bounds around work Chromium may never finish (a deadline, a context that must close).
 */
import type { BrowserContext, BrowserContextOptions } from "playwright-core";
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

/**
 * The work's result, or the failure `pastDeadline` makes at the deadline (the caller then closes what the work
 * held; a later rejection of the work is not left unhandled).
 */
export function beforeDeadline<T>(
  work: Promise<T>,
  deadlineAt: number,
  pastDeadline: () => Error,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(pastDeadline()), Math.max(0, deadlineAt - performance.now()));
  });
  work.catch(() => {});
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

/** Whether the promise settled (either way) within the time. */
export async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  const settled = promise.then(
    () => true,
    () => true,
  );
  const result = await Promise.race([settled, timeout]);
  clearTimeout(timer);
  return result;
}

const contextCloseMs = 5_000;

/** Closes the context; false when it did not close in time (its browser no longer answers: replace it). */
export function closesInTime(context: BrowserContext | null): Promise<boolean> {
  return context ? settlesWithin(context.close(), contextCloseMs) : Promise.resolve(true);
}
