/** The pages anyone may open: the landing page and the static assets (styles, icon, the pages' small scripts). */
import { readFileSync } from "node:fs";
import type { FastifyInstance } from "fastify";
import { found } from "../accounts/access.js";
import { sendHtml } from "./render.js";
import { landingBody } from "./views/site.js";

const assets: Record<string, { type: string; body: Buffer }> = Object.fromEntries(
  [
    ["app.css", "text/css; charset=utf-8"],
    ["icon.svg", "image/svg+xml"],
    ["forms.js", "text/javascript; charset=utf-8"],
    ["crawl-progress.js", "text/javascript; charset=utf-8"],
  ].map(([name, type]) => [
    name,
    { type: type as string, body: readFileSync(new URL(`./assets/${name}`, import.meta.url)) },
  ]),
);

export async function siteRoutes(app: FastifyInstance): Promise<void> {
  app.get("/", async (request, reply) =>
    sendHtml(request, reply, "Grade your web pages", landingBody(request.session !== null)),
  );

  app.get<{ Params: { name: string } }>("/assets/:name", async (request, reply) => {
    const asset = found(assets[request.params.name]);
    return reply
      .type(asset.type)
      .header("cache-control", "public, max-age=3600")
      .header("x-content-type-options", "nosniff")
      .send(asset.body);
  });
}
