/**
 * A site of a few hundred linked URLs served from 127.0.0.1, meant to be crawled twice with a `max_pages` below
 * its size (`limitedMaxPages`): the home page links 20 sections, each section 15 member pages, every tenth
 * member (those numbered …3) a 404. Between version 1 and version 2 exactly two things change on the site:
 * section /s/7 is removed (it answers 404, so the home page's link to it is now broken) and section /s/3 loses
 * its `<title>`. The home page also lists its sections in the other order, as a busy site's crawl order shifts
 * between crawls: each crawl reaches a different part of the members before its limit, so each finds broken
 * links the other never reached (coverage, not changes).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { type LocalServer, startServer } from "./local-server.js";

export const limitedMaxPages = 80;
const sections = 20;
const membersPerSection = 15;

const words = (seed: string) =>
  Array.from({ length: 60 }, (_, index) => `${seed}${(index * 7919 + seed.length * 31) % 997}`).join(" ");

const page = (title: string | null, heading: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8">${title === null ? "" : `<title>${title}</title>`}<meta name="viewport" content="width=device-width, initial-scale=1"></head><body><h1>${heading}</h1>${body}</body></html>`;

export interface LimitedSite {
  server: LocalServer;
  version: 1 | 2;
  url(path: string): string;
  close(): Promise<void>;
}

export async function startLimitedSite(): Promise<LimitedSite> {
  const site = { version: 1 as 1 | 2 };
  const send = (response: ServerResponse, status: number, body: string) => {
    response.writeHead(status, { "content-type": "text/html; charset=utf-8" });
    response.end(body);
  };
  const missing = (response: ServerResponse) =>
    send(response, 404, page("Page not found", "Not found", "<p>Nothing here.</p>"));
  const handler = (request: IncomingMessage, response: ServerResponse) => {
    const path = new URL(request.url ?? "/", "http://localhost").pathname;
    if (path === "/") {
      const order = Array.from({ length: sections }, (_, index) => index);
      if (site.version === 2) order.reverse();
      const links = order.map((index) => `<a href="/s/${index}">Section number ${index}</a>`).join(" ");
      return send(
        response,
        200,
        page("Home of the cycling club archive", "Cycling club archive", `<p>${words("home")}</p>${links}`),
      );
    }
    const section = /^\/s\/(\d+)$/.exec(path);
    if (section) {
      const index = Number(section[1]);
      if (index >= sections || (site.version === 2 && index === 7)) return missing(response);
      const members = Array.from(
        { length: membersPerSection },
        (_, offset) => index * membersPerSection + offset,
      )
        .map((member) => `<a href="/m/${member}">Member number ${member}</a>`)
        .join(" ");
      const title = site.version === 2 && index === 3 ? null : `Section ${index} of the cycling club archive`;
      return send(
        response,
        200,
        page(title, `Section ${index}`, `<p>${words(`section${index}x`)}</p><a href="/">Home</a> ${members}`),
      );
    }
    const member = /^\/m\/(\d+)$/.exec(path);
    if (member) {
      const index = Number(member[1]);
      if (index >= sections * membersPerSection || index % 10 === 3) return missing(response);
      return send(
        response,
        200,
        page(`Member ${index} of the cycling club`, `Member ${index}`, `<p>${words(`member${index}y`)}</p>`),
      );
    }
    return missing(response);
  };
  const server = await startServer({}, { fallback: handler });
  return {
    server,
    get version() {
      return site.version;
    },
    set version(value: 1 | 2) {
      site.version = value;
    },
    url: (path: string) => `${server.url}${path}`,
    close: () => server.close(),
  };
}
