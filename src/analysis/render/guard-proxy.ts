/**
 * The browser's only way out: a forward proxy on 127.0.0.1 that Chromium must send every connection through.
 * Each CONNECT tunnel (https, wss) and each absolute-form request (http, ws upgrades) is vetted by the same
 * ConnectionGuard the fetcher uses, then connected to exactly the vetted address, so a name is resolved once
 * and never again (no DNS rebinding). The proxy follows no redirects: the browser does, and every hop comes back
 * here to be vetted. A refused request gets a plain 403 from the proxy itself.
 *
 * One proxy serves one page, so its counters are that page's: requests and bytes are capped here, where every
 * byte passes, and no script in the page can get round the count.
 */
import {
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import { type AddressInfo, connect, type Socket } from "node:net";
import type { Duplex } from "node:stream";
import type { VettedAddress } from "../fetch/connection-guard.js";
import { FetchFailure, type FetchFailureReason } from "../fetch/fetch-failure.js";

/** What the proxy asks before connecting anywhere: ConnectionGuard, or a stand-in that refuses everything. */
export interface Vetter {
  vet(hostname: string): Promise<VettedAddress>;
}

export interface GuardProxyLimits {
  /** Requests (tunnels and plain requests) the page may make; more are refused. */
  maxRequests: number;
  /** Bytes the page may receive, all responses together; past it every connection is cut. */
  maxBytes: number;
  /** Time to open the upstream connection. */
  connectTimeoutMs: number;
}

/** A request the proxy refused, for the page's facts and to explain a failed navigation. */
export interface ProxyRefusal {
  /** "https://host:port" for a tunnel, the full URL for a plain request. */
  target: string;
  hostname: string;
  reason: FetchFailureReason | "request-limit" | "byte-limit" | "bad-request";
}

export interface ProxyStats {
  /** Tunnels opened and plain requests made (refused ones included). */
  requests: number;
  /** Bytes received from servers and passed to the browser. */
  bytesReceived: number;
  refusals: ProxyRefusal[];
  /** The cap the page ran into, or null. */
  limitReached: "requests" | "bytes" | null;
}

/** Hop-by-hop headers (RFC 9110 §7.6.1) and the proxy's own: never forwarded in either direction. */
const hopByHop = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authenticate",
  "proxy-authorization",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
]);

const refusedRecords = 200;

export class GuardProxy {
  private readonly sockets = new Set<Duplex>();
  private readonly state: ProxyStats = { requests: 0, bytesReceived: 0, refusals: [], limitReached: null };
  /**
   * Each host's vetting, once per page (the proxy lives for one page): a page names the same hosts many times,
   * and a lookup per request multiplies the resolver's slow answers (a dropped query costs its 5 s timeout).
   * Sharing it is as safe as asking again: every connection still goes to the one vetted address, and a refusal
   * holds for every request to that host.
   */
  private readonly vetted = new Map<string, Promise<VettedAddress>>();

  private constructor(
    private readonly server: Server,
    private readonly vetter: Vetter,
    private readonly limits: GuardProxyLimits,
  ) {}

  /** Starts a proxy on an ephemeral port of 127.0.0.1. */
  static async start(vetter: Vetter, limits: GuardProxyLimits): Promise<GuardProxy> {
    const server = createServer();
    const proxy = new GuardProxy(server, vetter, limits);
    server.on("request", (request, response) => proxy.forward(request, response));
    server.on("connect", (request, socket, head) => proxy.tunnel(request, socket, head, "connect"));
    server.on("upgrade", (request, socket, head) => proxy.tunnel(request, socket, head, "upgrade"));
    server.on("connection", (socket: Socket) => proxy.track(socket));
    server.on("clientError", (_error, socket) => socket.destroy());
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => resolve());
    });
    return proxy;
  }

  /** "http://127.0.0.1:port", for Chromium's proxy setting. */
  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  get stats(): Readonly<ProxyStats> {
    return this.state;
  }

  /** Stops listening and cuts every connection, browser side and server side. */
  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /**
   * Asks the guard about a URL before the browser sends it (a top-level navigation that would otherwise end on
   * Chromium's error page): recorded like a request the proxy refused, as the proxy would name it. Not counted
   * as a request: one the guard admits is counted when the browser sends it.
   */
  async refusalOf(url: URL): Promise<ProxyRefusal | null> {
    const admitted = await this.vet(url.hostname);
    if (admitted.ok) return null;
    const tunnelled = url.protocol === "https:" || url.protocol === "wss:";
    const target = tunnelled ? `https://${url.host}` : url.href;
    this.record(target, url.hostname, admitted.reason);
    return { target, hostname: url.hostname, reason: admitted.reason };
  }

  /** A plain request in absolute form ("GET http://host/path"): vetted, pinned, answered as the server answers. */
  private async forward(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const target = absoluteTarget(request.url);
    if (!target) return this.refuseResponse(response, request.url ?? "", "", "bad-request");
    const admitted = await this.admit(target.hostname);
    if (!admitted.ok) return this.refuseResponse(response, target.href, target.hostname, admitted.reason);
    const upstream = httpRequest({
      host: admitted.address.address,
      family: admitted.address.family,
      port: Number(target.port || 80),
      method: request.method,
      path: `${target.pathname}${target.search}`,
      headers: forwardedHeaders(request.headers, target.host),
      // A fresh connection per request: nothing pooled outlives this vetted address.
      agent: false,
    });
    upstream.on("socket", (socket) => {
      this.track(socket);
      // Only connecting is timed here; a slow answer is the page's business, bounded by its deadline.
      const timer = setTimeout(() => upstream.destroy(), this.limits.connectTimeoutMs);
      socket.once("connect", () => clearTimeout(timer));
      socket.once("close", () => clearTimeout(timer));
    });
    upstream.on("error", () => {
      if (!response.headersSent) {
        response.writeHead(502, { "content-type": "text/plain", connection: "close" });
        response.end("Bad gateway");
      } else {
        response.destroy();
      }
    });
    upstream.on("response", (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.statusMessage, backHeaders(answer.rawHeaders));
      answer.on("data", (chunk: Buffer) => {
        if (this.received(chunk.length)) response.write(chunk);
      });
      answer.on("end", () => response.end());
      answer.on("error", () => response.destroy());
    });
    request.pipe(upstream);
    response.on("close", () => upstream.destroy());
  }

  /**
   * CONNECT host:port (TLS, wss) or an absolute-form Upgrade (ws): vetted, pinned, then bytes are relayed as
   * they are. TLS stays between the browser and the server, which checks the certificate for the host name.
   */
  private async tunnel(request: IncomingMessage, client: Duplex, head: Buffer, kind: "connect" | "upgrade") {
    this.track(client);
    const target = kind === "connect" ? authorityTarget(request.url) : absoluteTarget(request.url);
    if (!target) return this.refuseSocket(client, request.url ?? "", "", "bad-request");
    const shown = kind === "connect" ? `https://${target.host}` : target.href;
    const admitted = await this.admit(target.hostname);
    if (!admitted.ok) return this.refuseSocket(client, shown, target.hostname, admitted.reason);
    const defaultPort = kind === "connect" ? 443 : 80;
    const upstream = connect({
      host: admitted.address.address,
      family: admitted.address.family,
      port: Number(target.port || defaultPort),
      timeout: this.limits.connectTimeoutMs,
    });
    this.track(upstream);
    upstream.on("timeout", () => upstream.destroy());
    upstream.on("error", () => {
      if (client.writable)
        client.end("HTTP/1.1 502 Bad Gateway\r\ncontent-length: 0\r\nconnection: close\r\n\r\n");
      client.destroy();
    });
    upstream.once("connect", () => {
      upstream.setTimeout(0);
      if (kind === "connect") {
        client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      } else {
        upstream.write(upgradeHead(request, target));
      }
      if (head.length > 0) upstream.write(head);
      upstream.on("data", (chunk: Buffer) => {
        if (this.received(chunk.length)) client.write(chunk);
      });
      client.pipe(upstream);
      upstream.on("end", () => client.end());
      client.on("close", () => upstream.destroy());
      upstream.on("close", () => client.destroy());
    });
  }

  /** Counts the request against the cap, then asks the guard. */
  private async admit(
    hostname: string,
  ): Promise<{ ok: true; address: VettedAddress } | { ok: false; reason: ProxyRefusal["reason"] }> {
    this.state.requests++;
    if (this.state.limitReached === "bytes") return { ok: false, reason: "byte-limit" };
    if (this.state.requests > this.limits.maxRequests) {
      this.state.limitReached ??= "requests";
      return { ok: false, reason: "request-limit" };
    }
    return this.vet(hostname);
  }

  /** Asks the guard, once per host name. */
  private async vet(
    hostname: string,
  ): Promise<{ ok: true; address: VettedAddress } | { ok: false; reason: ProxyRefusal["reason"] }> {
    let vetting = this.vetted.get(hostname);
    if (!vetting) {
      vetting = this.vetter.vet(hostname);
      this.vetted.set(hostname, vetting);
    }
    try {
      return { ok: true, address: await vetting };
    } catch (error) {
      return { ok: false, reason: error instanceof FetchFailure ? error.reason : "connection-failed" };
    }
  }

  /** Adds received bytes; past the cap, cuts every connection and answers false. */
  private received(bytes: number): boolean {
    this.state.bytesReceived += bytes;
    if (this.state.bytesReceived <= this.limits.maxBytes) return true;
    if (this.state.limitReached === null) this.state.limitReached = "bytes";
    for (const socket of this.sockets) socket.destroy();
    return false;
  }

  private record(target: string, hostname: string, reason: ProxyRefusal["reason"]): void {
    if (this.state.refusals.length < refusedRecords) this.state.refusals.push({ target, hostname, reason });
  }

  private refuseResponse(
    response: ServerResponse,
    target: string,
    hostname: string,
    reason: ProxyRefusal["reason"],
  ): void {
    this.record(target, hostname, reason);
    response.writeHead(403, { "content-type": "text/plain", "content-length": "0", connection: "close" });
    response.end();
  }

  private refuseSocket(client: Duplex, target: string, hostname: string, reason: ProxyRefusal["reason"]) {
    this.record(target, hostname, reason);
    if (client.writable)
      client.end("HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\nconnection: close\r\n\r\n");
  }

  private track(socket: Duplex): void {
    this.sockets.add(socket);
    socket.on("error", () => socket.destroy());
    socket.once("close", () => this.sockets.delete(socket));
  }
}

/** The URL of an absolute-form request target; only http: and ws: travel in the clear through a proxy. */
function absoluteTarget(raw: string | undefined): URL | null {
  if (!raw || !/^(http|ws):\/\//i.test(raw)) return null;
  try {
    const url = new URL(raw);
    return url.protocol === "http:" || url.protocol === "ws:" ? url : null;
  } catch {
    return null;
  }
}

/** The "host:port" of a CONNECT; the port is required (RFC 9110 §9.3.6). */
function authorityTarget(raw: string | undefined): URL | null {
  if (!raw || /[/?#@\s]/.test(raw) || !/:\d+$/.test(raw)) return null;
  try {
    const url = new URL(`https://${raw}`);
    // new URL drops the default port; put it back so the tunnel goes where it was asked to.
    return url.port === "" ? new URL(`https://${url.hostname}:443`) : url;
  } catch {
    return null;
  }
}

function forwardedHeaders(headers: IncomingHttpHeaders, host: string): IncomingHttpHeaders {
  const forwarded: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!hopByHop.has(name) && value !== undefined) forwarded[name] = value;
  }
  forwarded.host = host;
  return forwarded;
}

/** Response headers as received (repeated ones kept apart, Set-Cookie above all), minus hop-by-hop ones. */
function backHeaders(raw: string[]): string[] {
  const kept: string[] = [];
  for (let index = 0; index + 1 < raw.length; index += 2) {
    const name = raw[index] as string;
    if (!hopByHop.has(name.toLowerCase())) kept.push(name, raw[index + 1] as string);
  }
  return kept;
}

/** The upgrade request rewritten to origin form for the server, with its own Upgrade and Connection headers. */
function upgradeHead(request: IncomingMessage, target: URL): string {
  const lines = [`${request.method} ${target.pathname}${target.search} HTTP/1.1`];
  const raw = request.rawHeaders;
  for (let index = 0; index + 1 < raw.length; index += 2) {
    const name = (raw[index] as string).toLowerCase();
    if (name.startsWith("proxy-") || name === "host") continue;
    lines.push(`${raw[index]}: ${raw[index + 1]}`);
  }
  lines.push(`Host: ${target.host}`);
  return `${lines.join("\r\n")}\r\n\r\n`;
}
