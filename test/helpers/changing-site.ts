/**
 * A small site served from 127.0.0.1 that changes in known ways between two crawls (`version` 1, then 2):
 * - a broken link is fixed (/gone no longer linked) and another appears (/gone2, 404);
 * - the duplicate title of /b and /c is resolved (/b gets its own title);
 * - /a loses its image's alt text (image-alt regressed), /fixme gains it (image-alt fixed), and /c gains an image
 *   without one (image-alt was na there: a change, neither regressed nor fixed);
 * - /d is no longer linked (removed), /e is new (added).
 * `expected` says what comparing crawl 2 with crawl 1 must find.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { type LocalServer, startServer } from "./local-server.js";

const words = (seed: string) =>
  Array.from({ length: 60 }, (_, index) => `${seed}${(index * 7919) % 997}`).join(" ");

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title><meta name="viewport" content="width=device-width, initial-scale=1"></head><body><h1>${title}</h1>${body}</body></html>`;

const image = (alt: boolean) => `<img src="/wheel.png" width="10" height="10"${alt ? ' alt="A wheel"' : ""}>`;

export interface ChangingSite {
  server: LocalServer;
  version: 1 | 2;
  url(path: string): string;
  close(): Promise<void>;
}

export async function startChangingSite(): Promise<ChangingSite> {
  const site = { version: 1 as 1 | 2 };
  const html = (body: () => string) => (_request: IncomingMessage, response: ServerResponse) => {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    response.end(body());
  };
  const missing = (_request: IncomingMessage, response: ServerResponse) => {
    response.writeHead(404, { "content-type": "text/html; charset=utf-8" });
    response.end(page("Not found here", "<p>Nothing.</p>"));
  };
  const v1 = () => site.version === 1;
  const server = await startServer({
    "/": html(() =>
      page(
        "Home of the bicycle repair shop",
        `<p>${words("home")}</p><a href="/a">Repairs</a> <a href="/b">Brakes</a> <a href="/c">Chains</a>
         <a href="/fixme">Wheels</a> ${v1() ? '<a href="/gone">Old offer</a> <a href="/d">Winter sale</a>' : '<a href="/gone2">New offer</a> <a href="/e">Spring sale</a>'}`,
      ),
    ),
    "/a": html(() => page("Repairs of every kind of bicycle", `<p>${words("repair")}</p>${image(v1())}`)),
    "/b": html(() =>
      page(v1() ? "Shared title of two pages" : "Brakes adjusted while you wait", `<p>${words("brake")}</p>`),
    ),
    "/c": html(() =>
      page("Shared title of two pages", `<p>${words("chain")}</p>${v1() ? "" : image(false)}`),
    ),
    "/fixme": html(() => page("Wheels trued and spokes replaced", `<p>${words("wheel")}</p>${image(!v1())}`)),
    "/d": html(() => page("The winter sale of used bicycles", `<p>${words("winter")}</p>`)),
    "/e": html(() => page("The spring sale of used bicycles", `<p>${words("spring")}</p>`)),
    "/gone": missing,
    "/gone2": missing,
    "/wheel.png": (_request, response) => {
      response.writeHead(200, { "content-type": "image/png" });
      response.end(Buffer.alloc(16));
    },
  });
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

/** What crawl 2 must show against crawl 1, by path. */
export const expected = {
  newFindings: { "broken-links": ["/gone2"] },
  resolvedFindings: { "broken-links": ["/gone"], "duplicate-title": ["/b /c"] },
  pageChecks: { "image-alt": { regressed: ["/a"], fixed: ["/fixme"] } },
  added: ["/e", "/gone2"],
  removed: ["/d", "/gone"],
  regressions: { high: 2, medium: 0, low: 0 },
};
