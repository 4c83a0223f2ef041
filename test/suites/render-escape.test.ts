import { createSocket, type Socket as UdpSocket } from "node:dgram";
import type { IncomingMessage, ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AddressPolicy } from "../../src/analysis/fetch/address-policy.js";
import { ConnectionGuard } from "../../src/analysis/fetch/connection-guard.js";
import { FetchFailure } from "../../src/analysis/fetch/fetch-failure.js";
import { dnsServerResolver } from "../../src/analysis/fetch/host-resolver.js";
import { BrowserPool } from "../../src/analysis/render/browser-pool.js";
import type { RenderedPage } from "../../src/analysis/render/rendered-page.js";
import { chromiumPath } from "../helpers/browser.js";
import { type DnsServer, startDnsServer } from "../helpers/dns-server.js";
import { html, type LocalServer, redirect, startServer } from "../helpers/local-server.js";

/**
 * The browser's network guard under attack. Attack pages served from a "public" host (127.0.0.2, admitted by
 * the allow-list, and the name public.test) use every element, API, worker, socket, hint, redirect and address
 * form a page has to reach canaries on 127.0.0.1 and ::1 (and this machine's own interface addresses), over
 * TCP and UDP. The canaries must see zero connections and zero packets, while each page's own requests to the
 * public host arrive (so the browser really ran the attack).
 */

/** Canary listeners: TCP (HTTP) and UDP on every inside address, all on one port P. */
interface Canaries {
  tcp: LocalServer[];
  udp: Array<{ socket: UdpSocket; label: string; packets: number }>;
}

describe("rendered mode: no way out of the browser", () => {
  let port: number;
  let site: LocalServer;
  let dns: DnsServer;
  let pool: BrowserPool;
  const canaries: Canaries = { tcp: [], udp: [] };
  const seen = new Set<string>();
  const holds = new Map<string, () => void>();
  let attacks = 0;
  /** Canary hits before the self-check at the end, which lets a browser through on purpose. */
  let hitsBeforeControl: number | null = null;

  /** Every way of naming an inside address, as an origin. */
  const insideOrigins = () => [
    `http://127.0.0.1:${port}`,
    `http://[::1]:${port}`,
    `http://localhost:${port}`,
    `http://LOCALHOST.:${port}`,
    `http://api.localhost:${port}`,
    `http://2130706433:${port}`,
    `http://0x7f.1:${port}`,
    `http://0177.0.0.1:${port}`,
    `http://127.1:${port}`,
    `http://[::ffff:127.0.0.1]:${port}`,
    `http://[::ffff:7f00:1]:${port}`,
    `http://0.0.0.0:${port}`,
    `http://inside.test:${port}`,
    `http://six.test:${port}`,
    `http://rebind.test:${port}`,
    `http://printer.local:${port}`,
    `http://192.0.2.2:${port}`,
    `http://[fd00::2]:${port}`,
  ];
  const insideHosts = () => insideOrigins().map((origin) => origin.slice("http://".length));
  const originCount = 18;

  const canaryHits = () =>
    canaries.tcp.reduce((sum, server) => sum + server.connections, 0) +
    canaries.udp.reduce((sum, listener) => sum + listener.packets, 0);

  beforeAll(async () => {
    // The public site first, on an ephemeral port P of 127.0.0.2; then canaries on P everywhere else.
    site = await startServer(
      {},
      { host: "127.0.0.2", fallback: (request, response) => publicSite(request, response) },
    );
    port = site.port;
    for (const host of ["127.0.0.1", "::1", "192.0.2.2", "fd00::2"]) {
      const canary = await startServer({}, { host, port, fallback: html("<title>canary</title>") }).catch(
        () => null,
      );
      if (canary) canaries.tcp.push(canary);
    }
    for (const [type, host] of [
      ["udp4", "127.0.0.1"],
      ["udp6", "::1"],
      ["udp4", "192.0.2.2"],
      ["udp6", "fd00::2"],
    ] as const) {
      await udpCanary(type, host, port, `${host}:${port}`);
    }
    // STUN's and TURN's default port, and multicast DNS (where WebRTC announces its .local names).
    await udpCanary("udp4", "127.0.0.1", 3478, "127.0.0.1:3478");
    await udpCanary("udp4", "0.0.0.0", 5353, "mDNS 224.0.0.251:5353", "224.0.0.251");
    await udpCanary("udp6", "::", 5353, "mDNS [ff02::fb]:5353", "ff02::fb");
    dns = await startDnsServer((name, query) => {
      if (name === "public.test") return ["127.0.0.2"];
      if (name === "inside.test") return ["127.0.0.1"];
      if (name === "six.test") return ["::1"];
      if (name === "mixed.test") return ["127.0.0.2", "127.0.0.1"];
      if (name === "rebind.test") return query % 2 === 1 ? ["127.0.0.2"] : ["127.0.0.1"];
      if (name === "printer.local") return ["192.0.2.2"];
      return [];
    });
    const guard = new ConnectionGuard(
      new AddressPolicy({ allowPrivateNetworks: false, allowedRanges: ["127.0.0.2"] }),
      dnsServerResolver([dns.server]),
    );
    pool = new BrowserPool(guard, {
      executablePath: chromiumPath,
      // The test machines run as root, where Chromium has no sandbox; servers keep it on.
      sandbox: false,
      maxConcurrent: 1,
      settleMs: 8_000,
      // The attack pages are heavy (hundreds of elements and frames); the deadline is generous so that a
      // busy machine does not end an attack before it has run.
      deadlineMs: 90_000,
      connectTimeoutMs: 2_000,
    });
  });

  afterAll(async () => {
    console.log(
      `render-escape: ${attacks} attack pages, ${canaries.tcp.length} TCP and ${canaries.udp.length} UDP canaries (${canaries.udp.map((listener) => listener.label).join(", ")}), ${hitsBeforeControl ?? canaryHits()} canary connections or packets`,
    );
    for (const release of holds.values()) release();
    await pool?.close();
    await Promise.all([site?.close(), dns?.close(), ...canaries.tcp.map((canary) => canary.close())]);
    for (const { socket } of canaries.udp) socket.close();
  });

  async function udpCanary(
    type: "udp4" | "udp6",
    host: string,
    udpPort: number,
    label: string,
    group?: string,
  ) {
    const socket = createSocket({ type, reuseAddr: true });
    const listener = { socket, label, packets: 0 };
    socket.on("message", () => {
      listener.packets++;
    });
    socket.on("error", () => {});
    try {
      await new Promise<void>((resolve, reject) => {
        socket.once("error", reject);
        socket.bind(udpPort, host, () => resolve());
      });
      if (group) socket.addMembership(group);
      canaries.udp.push(listener);
    } catch {
      socket.close();
    }
  }

  /**
   * The public host: attack pages, the scripts and styles they load, redirects to the inside, and beacons.
   * /hold/<name> stays open until the page reports /done/<name>, so the render waits for the attack to finish.
   */
  function publicSite(request: IncomingMessage, response: ServerResponse) {
    const url = new URL(request.url ?? "/", "http://x");
    const [, kind = "", name = ""] = url.pathname.split("/");
    seen.add(url.pathname);
    if (kind === "attack") return html(attackPage(name))(request, response);
    if (kind === "beacon") return void response.end("ok");
    if (kind === "hold") {
      const timer = setTimeout(() => response.end("late"), 15_000);
      holds.set(name, () => {
        clearTimeout(timer);
        response.end("ok");
      });
      return;
    }
    if (kind === "done") {
      holds.get(name)?.();
      return void response.end("ok");
    }
    if (kind === "to") {
      // /to/<index>/<anything>: a 302 to the inside origin of that index.
      const target = insideOrigins()[Number(name)] ?? `http://127.0.0.1:${port}`;
      return redirect(`${target}/redirected`, 302)(request, response);
    }
    if (kind === "worker.js") {
      response.setHeader("content-type", "text/javascript");
      return void response.end(`${attemptsScript(url.searchParams.get("name") ?? "worker")}
        attempt(${JSON.stringify(insideOrigins())}).then(() => fetch("/beacon/${url.searchParams.get("name")}-ran"));`);
    }
    if (kind === "sw.js") {
      response.setHeader("content-type", "text/javascript");
      return void response.end(
        `self.addEventListener("install", () => fetch("http://127.0.0.1:${port}/sw"));`,
      );
    }
    if (kind === "style.css") {
      response.setHeader("content-type", "text/css");
      return void response.end(
        insideOrigins()
          .map((origin) => `@import url("${origin}/import.css");`)
          .join("\n"),
      );
    }
    if (kind === "page") return html(`<title>a public page</title><p>${url.pathname}</p>`)(request, response);
    response.statusCode = 404;
    response.end();
  }

  /**
   * A script that defines attempt(origins): tries fetch, XHR, EventSource, WebSocket and importScripts-free
   * requests to every origin, each bounded in time. Used in pages and in workers.
   */
  function attemptsScript(name: string): string {
    return `
      const within = (promise) => Promise.race([promise, new Promise((r) => setTimeout(r, 2000))]).catch(() => {});
      async function attempt(origins) {
        const tries = [];
        for (const origin of origins) {
          tries.push(within(fetch(origin + "/fetch-${name}", { mode: "no-cors" })));
          tries.push(within(fetch(origin + "/post-${name}", { method: "POST", body: "x", mode: "no-cors" })));
          if (typeof XMLHttpRequest !== "undefined") {
            tries.push(within(new Promise((resolve) => {
              const xhr = new XMLHttpRequest();
              xhr.open("GET", origin + "/xhr-${name}");
              xhr.onloadend = resolve;
              xhr.send();
            })));
          }
          if (typeof EventSource !== "undefined") {
            tries.push(within(new Promise((resolve) => {
              const source = new EventSource(origin + "/events-${name}");
              source.onerror = () => { source.close(); resolve(); };
            })));
          }
          for (const scheme of ["ws:", "wss:"]) {
            tries.push(within(new Promise((resolve) => {
              try {
                const socket = new WebSocket(origin.replace("http:", scheme) + "/socket-${name}");
                socket.onerror = resolve;
                socket.onclose = resolve;
              } catch { resolve(); }
            })));
          }
        }
        await Promise.all(tries);
      }`;
  }

  /** One attack per page: its markup and script, framed by the hold request and the done beacon. */
  function attackPage(name: string): string {
    const origins = insideOrigins();
    const attack = attacksByName[name]?.(origins) ?? "";
    return `<!doctype html><html lang="en"><head><title>attack ${name}</title></head><body>
      <p>Attack page ${name}</p>
      <script>fetch("/hold/${name}"); fetch("/beacon/${name}");</script>
      ${attack}
      <script>
        window.__attack = window.__attack || Promise.resolve();
        window.addEventListener("load", () => {
          Promise.resolve(window.__attack).catch(() => {}).then(() => new Promise((r) => setTimeout(r, 1500)))
            .then(() => fetch("/done/${name}"));
        });
      </script></body></html>`;
  }

  const each = (origins: string[], render: (origin: string, index: number) => string) =>
    origins.map(render).join("\n");

  const attacksByName: Record<string, (origins: string[]) => string> = {
    elements: (origins) =>
      each(
        origins,
        (o, i) => `
        <img src="${o}/img"><img srcset="${o}/srcset 2x"><picture><source srcset="${o}/picture"><img></picture>
        <script src="${o}/script"></script><script type="module" src="${o}/module"></script>
        <link rel="stylesheet" href="${o}/style"><link rel="icon" href="${o}/icon">
        <link rel="manifest" href="${o}/manifest">
        <iframe src="${o}/iframe"></iframe><iframe srcdoc="<img src='${o}/srcdoc'>"></iframe>
        <object data="${o}/object"></object><embed src="${o}/embed">
        <video src="${o}/video" autoplay muted poster="${o}/poster"><track src="${o}/track" default></video>
        <audio src="${o}/audio" autoplay></audio>
        <video autoplay muted><source src="${o}/source"></video>
        <svg><image href="${o}/svg-image"/></svg>
        <input type="image" src="${o}/input-image">
        <form action="${o}/form" method="post" target="frame${i}" class="auto"><input name="a" value="b"></form>
        <iframe name="frame${i}"></iframe>
        <a href="/beacon/elements-ping-target" ping="${o}/ping" target="ping${i}" class="ping">x</a>
        <iframe name="ping${i}"></iframe>`,
      ) +
      `<script>
        for (const form of document.querySelectorAll("form.auto")) form.submit();
        for (const link of document.querySelectorAll("a.ping")) link.click();
      </script>`,
    hints: (origins) =>
      each(
        origins,
        (o) => `
        <link rel="prefetch" href="${o}/prefetch"><link rel="preconnect" href="${o}">
        <link rel="dns-prefetch" href="${o}"><link rel="preload" as="image" href="${o}/preload">
        <link rel="preload" as="fetch" crossorigin href="${o}/preload-fetch">
        <link rel="modulepreload" href="${o}/modulepreload"><link rel="prerender" href="${o}/prerender">`,
      ) +
      `<script type="speculationrules">${JSON.stringify({
        prefetch: [{ source: "list", urls: origins.map((o) => `${o}/speculation-prefetch`) }],
        prerender: [{ source: "list", urls: origins.map((o) => `${o}/speculation-prerender`) }],
      })}</script>`,
    css: (origins) =>
      `<style>${each(
        origins,
        (o, i) => `
        @import url("${o}/import");
        @font-face { font-family: f${i}; src: url("${o}/font.woff2"); }
        .c${i} { font-family: f${i}; background: url("${o}/background"); border-image: url("${o}/border") 30;
                 cursor: url("${o}/cursor"), auto; list-style-image: url("${o}/list"); mask-image: url("${o}/mask"); }`,
      )}</style>
      <link rel="stylesheet" href="/style.css">
      ${each(origins, (_o, i) => `<ul><li class="c${i}">text ${i}</li></ul>`)}
      ${each(origins, (o) => `<div style="background-image: image-set(url('${o}/image-set') 1x)">x</div>`)}`,
    apis: (origins) =>
      `<script>${attemptsScript("apis")}
        window.__attack = (async () => {
          const origins = ${JSON.stringify(origins)};
          for (const origin of origins) {
            try { navigator.sendBeacon(origin + "/beacon-api", "x"); } catch {}
            try { new Image().src = origin + "/image-object"; } catch {}
          }
          await attempt(origins);
          await fetch("/beacon/apis-ran");
        })();
      </script>`,
    "web-transport": (origins) =>
      `<script>
        window.__attack = (async () => {
          const tries = [];
          for (const origin of ${JSON.stringify(origins)}) {
            try {
              const transport = new WebTransport(origin.replace("http:", "https:") + "/transport");
              tries.push(Promise.race([transport.ready, new Promise((r) => setTimeout(r, 2000))]).catch(() => {}));
            } catch {}
          }
          await Promise.all(tries);
          await fetch("/beacon/web-transport-ran");
        })();
      </script>`,
    webrtc: () =>
      `<script>
        window.__attack = (async () => {
          const servers = [
            "stun:127.0.0.1:${port}", "stun:[::1]:${port}", "stun:127.0.0.1:3478", "stun:inside.test:${port}",
            "turn:127.0.0.1:${port}?transport=udp", "turn:127.0.0.1:${port}?transport=tcp",
            "turn:[::1]:${port}?transport=udp", "stun:192.0.2.2:${port}", "stun:[fd00::2]:${port}",
          ];
          const connections = [];
          for (const url of servers) {
            try {
              const connection = new RTCPeerConnection({
                iceServers: [{ urls: url, username: "u", credential: "p" }],
                iceCandidatePoolSize: 1,
              });
              connection.createDataChannel("d");
              connections.push(connection);
              await connection.setLocalDescription(await connection.createOffer());
            } catch {}
          }
          // Two peers on this page, to tempt host candidates (and their mDNS announcements).
          try {
            const a = new RTCPeerConnection(), b = new RTCPeerConnection();
            a.onicecandidate = (e) => e.candidate && b.addIceCandidate(e.candidate).catch(() => {});
            b.onicecandidate = (e) => e.candidate && a.addIceCandidate(e.candidate).catch(() => {});
            a.createDataChannel("x");
            await a.setLocalDescription(await a.createOffer());
            await b.setRemoteDescription(a.localDescription);
            await b.setLocalDescription(await b.createAnswer());
            await a.setRemoteDescription(b.localDescription);
            connections.push(a, b);
          } catch {}
          await new Promise((r) => setTimeout(r, 3000));
          await fetch("/beacon/webrtc-ran");
          for (const connection of connections) connection.close();
        })();
      </script>`,
    workers: (origins) =>
      `<script>${attemptsScript("page")}
        window.__attack = (async () => {
          const origins = ${JSON.stringify(origins)};
          const body = ${JSON.stringify(attemptsScript("blob-worker"))} +
            "attempt(" + JSON.stringify(origins) + ").then(() => fetch(" + JSON.stringify(location.origin + "/beacon/blob-worker-ran") + "));";
          const blob = URL.createObjectURL(new Blob([body], { type: "text/javascript" }));
          try { new Worker(blob); } catch {}
          try { new SharedWorker(blob, "shared"); } catch {}
          try { new Worker("/worker.js?name=dedicated-worker"); } catch {}
          try { new SharedWorker("/worker.js?name=shared-worker"); } catch {}
          for (const origin of origins) {
            try { new Worker(origin + "/worker.js"); } catch {}
            try { new SharedWorker(origin + "/shared-worker.js"); } catch {}
          }
          try { await navigator.serviceWorker.register("/sw.js"); } catch {}
          await new Promise((r) => setTimeout(r, 3000));
        })();
      </script>`,
    redirects: (origins) =>
      each(
        origins,
        (_o, i) => `
        <img src="/to/${i}/img"><script src="/to/${i}/script"></script><iframe src="/to/${i}/iframe"></iframe>
        <link rel="stylesheet" href="/to/${i}/style">`,
      ) +
      `<script>
        window.__attack = Promise.all(${JSON.stringify(origins)}.map((_, i) =>
          fetch("/to/" + i + "/fetch").catch(() => {})));
      </script>`,
    popups: (origins) =>
      `<script>
        for (const origin of ${JSON.stringify(origins)}) {
          try { window.open(origin + "/popup"); } catch {}
          try { window.open("/to/0/popup-redirect"); } catch {}
          const link = document.createElement("a");
          link.href = origin + "/blank-link";
          link.target = "_blank";
          document.body.append(link);
          link.click();
        }
        window.__attack = new Promise((r) => setTimeout(r, 2000));
      </script>`,
  };

  /** Top-level navigations away from the attack page: one target per page, since only one can happen. */
  const topNavigations: Record<string, (origin: string) => string> = {
    "meta-refresh": (o) => `<meta http-equiv="refresh" content="0; url=${o}/refresh">`,
    location: (o) => `<script>setTimeout(() => { location.href = "${o}/location"; }, 200);</script>`,
    "form-top": (o) =>
      `<form action="${o}/form-top" method="get"></form><script>setTimeout(() => document.forms[0].submit(), 200);</script>`,
    "link-click": (o) =>
      `<a href="${o}/click">x</a><script>setTimeout(() => document.links[0].click(), 200);</script>`,
    "redirect-hop": () => `<script>setTimeout(() => { location.href = "/to/0/top"; }, 200);</script>`,
  };
  for (const [kind, page] of Object.entries(topNavigations)) {
    for (const [index, build] of ["127.0.0.1", "[::1]"].entries()) {
      attacksByName[`${kind}-${index}`] = () => page(`http://${build}:${port}`);
    }
  }

  const renderAttack = async (name: string, host = "127.0.0.2"): Promise<RenderedPage | null> => {
    attacks++;
    const outcome = await pool.render(new URL(`http://${host}:${port}/attack/${name}`)).then(
      (page): RenderedPage | Error => page,
      (error: unknown) => error,
    );
    // Navigating the top frame away is allowed to end the render in a clean failure; nothing else is.
    if (!(outcome instanceof Error)) return outcome as RenderedPage;
    expect(outcome, `${name}: ${String(outcome)}`).toBeInstanceOf(FetchFailure);
    return null;
  };

  it.each(["elements", "hints", "css", "apis", "web-transport", "webrtc", "workers", "redirects", "popups"])(
    "the %s attack reaches no canary, and the page's own requests arrive",
    async (name) => {
      const page = await renderAttack(name);
      expect(page, name).not.toBeNull();
      expect(seen.has(`/beacon/${name}`), "the page's own request arrived").toBe(true);
      expect(seen.has(`/done/${name}`), "the attack ran to its end").toBe(true);
      // The guard refused the attempts: the proxy saw them (so they were made) and turned every one away.
      if (!["webrtc", "web-transport", "hints"].includes(name)) {
        expect(page?.facts.refusals.length, "refusals recorded").toBeGreaterThan(0);
      }
      expect(canaryHits()).toBe(0);
    },
  );

  it("ran the scripts inside workers and followed redirects back through the guard", () => {
    expect(seen.has("/beacon/blob-worker-ran")).toBe(true);
    expect(seen.has("/beacon/dedicated-worker-ran")).toBe(true);
    expect(seen.has("/beacon/apis-ran")).toBe(true);
    expect(seen.has("/beacon/webrtc-ran")).toBe(true);
    expect([...seen].filter((path) => path.startsWith("/to/")).length).toBeGreaterThan(
      insideOrigins().length,
    );
    expect(canaryHits()).toBe(0);
  });

  it.each(Object.keys(topNavigations).flatMap((kind) => [`${kind}-0`, `${kind}-1`]))(
    "navigating the top frame away (%s) reaches no canary",
    async (name) => {
      await renderAttack(name);
      expect(seen.has(`/beacon/${name}`)).toBe(true);
      expect(canaryHits()).toBe(0);
    },
  );

  it("an attack page reached by a public name works the same", async () => {
    const page = await renderAttack("apis", "public.test");
    expect(page?.finalUrl).toBe(`http://public.test:${port}/attack/apis`);
    expect(canaryHits()).toBe(0);
  });

  // The origins need the port, known only once the servers listen: the cases are indexes into the list.
  const originIndexes = Array.from({ length: originCount }, (_value, index) => index);

  it.each(originIndexes)("refuses to render a page at an inside address (form %i)", async (index) => {
    const host = insideHosts()[index] as string;
    attacks++;
    const error = await pool.render(new URL(`http://${host}/`)).then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error, host).toBeInstanceOf(FetchFailure);
    // rebind.test: the guard pinned whichever answer it vetted; an inside one is refused, the public one is
    // the site, which has nothing at "/".
    const reasons = host.startsWith("rebind.test") ? ["private-address", "http-status"] : ["private-address"];
    expect(reasons, host).toContain((error as FetchFailure).reason);
    expect(canaryHits()).toBe(0);
  });

  it.each(originIndexes)("refuses a page that redirects inside (to form %i)", async (index) => {
    attacks++;
    const error = await pool.render(new URL(`http://127.0.0.2:${port}/to/${index}/main`)).then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(FetchFailure);
    expect(["private-address", "unresolvable", "http-status"]).toContain((error as FetchFailure).reason);
    expect(canaryHits()).toBe(0);
  });

  it("checks itself: the same attack through a guard that admits everything does reach the canaries", async () => {
    expect(insideOrigins()).toHaveLength(originCount);
    const before = canaryHits();
    hitsBeforeControl = before;
    const open = new BrowserPool(
      new ConnectionGuard(
        new AddressPolicy({ allowPrivateNetworks: true, allowedRanges: [] }),
        dnsServerResolver([dns.server]),
      ),
      {
        executablePath: chromiumPath,
        sandbox: false,
        maxConcurrent: 1,
        settleMs: 8_000,
        connectTimeoutMs: 2_000,
      },
    );
    try {
      await open.render(new URL(`http://127.0.0.2:${port}/attack/apis`));
    } finally {
      await open.close();
    }
    expect(canaryHits() - before).toBeGreaterThan(0);
  });
});
