/**
 * An undici Agent whose every new connection goes through the ConnectionGuard and then connects to exactly
 * the vetted address, keeping the original host name for TLS (SNI and certificate checks). It also records,
 * per origin, how long resolving and connecting took and which protocol ALPN chose (h2 or http/1.1).
 */
import { isIP } from "node:net";
import { rootCertificates, type TLSSocket } from "node:tls";
import { Agent, buildConnector } from "undici";
import type { ConnectionGuard } from "./connection-guard.js";

export interface ConnectionFacts {
  /** Milliseconds spent resolving the host and opening the connection (TLS included). */
  connectMs: number;
  /** "h2" or "http/1.1". */
  protocol: string;
}

export interface GuardedAgentOptions {
  connectTimeoutMs: number;
  headersTimeoutMs: number;
  /** Idle time allowed between two body chunks. */
  bodyTimeoutMs: number;
  /** PEM certificates to trust besides the system's roots, or null. */
  extraCaCertificates: string | null;
}

export class GuardedAgent {
  readonly dispatcher: Agent;
  private readonly facts = new Map<string, ConnectionFacts>();

  constructor(guard: ConnectionGuard, options: GuardedAgentOptions) {
    const connect = buildConnector({
      allowH2: true,
      timeout: options.connectTimeoutMs,
      ...(options.extraCaCertificates ? { ca: [...rootCertificates, options.extraCaCertificates] } : {}),
    });
    this.dispatcher = new Agent({
      allowH2: true,
      headersTimeout: options.headersTimeoutMs,
      bodyTimeout: options.bodyTimeoutMs,
      connect: (target, callback) => {
        const started = performance.now();
        const origin = `${target.protocol}//${target.host ?? target.hostname}`;
        guard.vet(target.hostname).then(
          ({ address }) => {
            const servername = isIP(unbracket(target.hostname)) ? undefined : target.hostname;
            connect(
              { ...target, hostname: address, ...(servername ? { servername } : {}) },
              (error, socket) => {
                if (socket && !error) {
                  const protocol = (socket as TLSSocket).alpnProtocol || "http/1.1";
                  if (!this.facts.has(origin)) {
                    this.facts.set(origin, { connectMs: performance.now() - started, protocol });
                  }
                  callback(null, socket);
                } else {
                  callback(error ?? new Error("connect failed"), null);
                }
              },
            );
          },
          (error: Error) => callback(error, null),
        );
      },
    });
  }

  /** Facts about the first connection this agent opened to an origin ("https://example.com:443"). */
  connectionFacts(url: URL): ConnectionFacts | undefined {
    return this.facts.get(`${url.protocol}//${url.host}`);
  }

  /**
   * Closes every connection at once; a request still open (a body read no further) fails with
   * `connectionsClosed`. One error for every agent: destroying a socket with an error reads its stack, and a
   * new error's stack was formatted for every page (through source maps, where they are on).
   */
  async close(): Promise<void> {
    await this.dispatcher.destroy(connectionsClosed);
  }
}

const connectionsClosed = new Error("The page's connections were closed.");

function unbracket(host: string): string {
  return host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
}
