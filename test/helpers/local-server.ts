/**
 * Real HTTP servers on the loopback interface for tests: a route table of handlers, and a count of the TCP
 * connections that reached the server (the "canary" that proves the guard let nothing through).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type Handler = (request: IncomingMessage, response: ServerResponse) => void;

export interface LocalServer {
  url: string;
  port: number;
  connections: number;
  requests: string[];
  close(): Promise<void>;
}

export async function startServer(
  routes: Record<string, Handler> = {},
  options: { host?: string; port?: number; fallback?: Handler } = {},
): Promise<LocalServer> {
  const host = options.host ?? "127.0.0.1";
  const state = { connections: 0, requests: [] as string[] };
  const server: Server = createServer((request, response) => {
    state.requests.push(request.url ?? "");
    const path = new URL(request.url ?? "/", "http://x").pathname;
    const handler = routes[path] ?? options.fallback ?? notFound;
    handler(request, response);
  });
  server.on("connection", () => {
    state.connections++;
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
    port,
    get connections() {
      return state.connections;
    },
    requests: state.requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const notFound: Handler = (_request, response) => {
  response.statusCode = 404;
  response.setHeader("content-type", "text/plain");
  response.end("not found");
};

/** Serves an HTML body with optional extra headers. */
export function html(body: string, headers: Record<string, string> = {}): Handler {
  return (_request, response) => {
    response.setHeader("content-type", "text/html; charset=utf-8");
    for (const [name, value] of Object.entries(headers)) response.setHeader(name, value);
    response.end(body);
  };
}

/** Serves an HTML body after a delay (a slow but working server). */
export function slowHtml(body: string, delayMs: number): Handler {
  return (request, response) => {
    setTimeout(() => html(body)(request, response), delayMs);
  };
}

export function redirect(location: string, status = 301): Handler {
  return (_request, response) => {
    response.statusCode = status;
    response.setHeader("location", location);
    response.end();
  };
}
