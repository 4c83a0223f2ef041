/**
 * How Chromium is started for rendering. The proxy (guard-proxy.ts) is the boundary; these switches make sure
 * nothing goes around it: the browser resolves no names, proxies loopback too, sends WebRTC only where the
 * proxy can see it, speaks no QUIC, and does no background networking of its own. Each switch says why.
 */
import { type Browser, chromium } from "playwright-core";
import { chromiumInstalled } from "./chromium-executable.js";
import { ChromiumUnavailable } from "./render-errors.js";

export { ChromiumUnavailable };

export interface ChromiumLaunchOptions {
  executablePath: string;
  /**
   * Chromium's sandbox; keep it on. Off only where Chromium cannot have one, which is when it runs as root
   * (the test machines do; PAGEGRADE_CHROMIUM_SANDBOX=0).
   */
  sandbox: boolean;
  /** A proxy that refuses everything: whatever the browser sends outside a page's own context lands here. */
  fallbackProxyUrl: string;
  /** Upper bound of a renderer's JavaScript heap, so a memory bomb kills its own tab first. */
  jsHeapMiB: number;
  /** How long Chromium may take to start before the launch fails. */
  timeoutMs?: number;
}

/** The switches added to Playwright's own defaults. */
export function guardSwitches(proxyHost: string, jsHeapMiB: number): string[] {
  return [
    // Every name Chromium would resolve itself fails: names are resolved by the proxy's guard only. The proxy
    // itself is an IP literal, excluded for clarity.
    `--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE ${proxyHost}`,
    // Loopback is proxied like everything else (Chromium bypasses the proxy for it by default).
    "--proxy-bypass-list=<-loopback>",
    // WebRTC may use UDP only through a proxy that carries UDP, which ours does not: no STUN or TURN packets
    // leave, and no host candidates are gathered (so no multicast mDNS announcements either).
    "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
    "--webrtc-ip-handling-policy=disable_non_proxied_udp",
    "--enforce-webrtc-ip-permission-check",
    // QUIC is UDP and would not pass through an HTTP proxy.
    "--disable-quic",
    // No speculative connections or DNS prefetching behind the page's back, no pings.
    "--dns-prefetch-disable",
    "--no-pings",
    // Background services that talk to the network on their own.
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-domain-reliability",
    "--disable-client-side-phishing-detection",
    "--disable-sync",
    "--no-first-run",
    "--disable-default-apps",
    "--disable-breakpad",
    // Chromium keeps only the last --disable-features, so this list repeats Playwright's network-related
    // entries (MediaRouter discovers devices by mDNS and SSDP) beside ours.
    `--disable-features=${[
      "MediaRouter",
      "DialMediaRouteProvider",
      "CastMediaRouteProvider",
      "WebRtcHideLocalIpsWithMdns",
      "OptimizationHints",
      "NetworkTimeServiceQuerying",
      "PreconnectToSearch",
      "AimEnabled",
      "AutofillServerCommunication",
      "Translate",
      "InterestFeedContentSuggestions",
      "CertificateTransparencyComponentUpdater",
      "DnsOverHttps",
      "AsyncDns",
      "HttpsUpgrades",
      "HttpsFirstBalancedModeAutoEnable",
      "PaintHolding",
      "DestroyProfileOnBrowserClose",
      "AvoidUnnecessaryBeforeUnloadCheckSync",
      "ThirdPartyStoragePartitioning",
      "AvoidCorsURLLoaderRestartOnRedirect",
      "LensOverlay",
      // Each page's window would otherwise load (and preload) the omnibox's WebUI popups, chrome:// pages
      // rendered in a process of their own while the page loads: on a test page its first paint came ~50 ms
      // later with them.
      "WebUIOmniboxPopup",
      "WebUIOmniboxFullPopup",
      "WebUIOmniboxAimPopup",
      "PreloadTopChromeWebUI",
    ].join(",")}`,
    // Rendering without a GPU; a memory bomb exhausts its own renderer's heap, not the machine.
    "--disable-gpu",
    `--js-flags=--max-old-space-size=${jsHeapMiB}`,
  ];
}

export async function launchChromium(options: ChromiumLaunchOptions): Promise<Browser> {
  if (!chromiumInstalled(options.executablePath)) throw ChromiumUnavailable.missing();
  const proxyHost = new URL(options.fallbackProxyUrl).hostname;
  return chromium.launch({
    executablePath: options.executablePath,
    headless: true,
    timeout: options.timeoutMs ?? 30_000,
    chromiumSandbox: options.sandbox,
    // The browser-wide proxy; each page's context names its own (browser-pool.ts).
    proxy: { server: options.fallbackProxyUrl, bypass: "<-loopback>" },
    args: guardSwitches(proxyHost, options.jsHeapMiB),
    // Playwright's handlers would kill this process's children on signals the service handles itself.
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
}
