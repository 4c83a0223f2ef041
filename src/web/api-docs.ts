/**
 * /docs: the OpenAPI document rendered by Swagger UI (`@fastify/swagger-ui`), every operation, schema and example
 * with a form to try it. Its scripts, styles and images are served from the package (nothing from a CDN, so it
 * works offline) under the pages' Content-Security-Policy, with inline styles allowed for Swagger UI's own; it
 * reads the same document as /api/v1/openapi.json. Without Swagger UI's top bar, with its deep links off (a link
 * inside each operation's toggle is a control nested in a control), its low-contrast colours darkened
 * (`api-docs-theme.css`) and its servers list named, axe-core finds nothing serious on it. Its page gets a viewport
 * (it reads on a phone) and a bar with the way back to the app, added to Swagger UI's own index page as it is sent.
 */
import { readFileSync } from "node:fs";
import swaggerUi from "@fastify/swagger-ui";
import type { FastifyInstance } from "fastify";
import { contentSecurityPolicy } from "./render.js";

const themeCss = readFileSync(new URL("./api-docs-theme.css", import.meta.url), "utf8");

/** Names the one control Swagger UI leaves unnamed (its servers list), whenever it is drawn. */
const themeScript = `new MutationObserver(() => {
  const servers = document.getElementById("servers");
  if (servers && !servers.hasAttribute("aria-label")) servers.setAttribute("aria-label", "Server");
}).observe(document.documentElement, { childList: true, subtree: true });`;

/** What /docs adds to Swagger UI's index page: a phone's viewport, and a link back to the app. */
const viewport = '<meta name="viewport" content="width=device-width, initial-scale=1">';
const backBar =
  '<nav class="pagegrade-bar" aria-label="pagegrade"><a href="/">← pagegrade</a> <a href="/reports">Reports</a> <a href="/crawls">Crawls</a> <a href="/account">Account (API key)</a></nav>';

export function withAppFrame(page: string): string {
  return page.replace(/<head>/i, `<head>\n${viewport}`).replace(/<body>/i, `<body>\n${backBar}`);
}

export async function apiDocs(app: FastifyInstance): Promise<void> {
  app.addHook("onSend", async (request, reply, payload) => {
    const type = String(reply.getHeader("content-type") ?? "");
    if (!request.url.startsWith("/docs") || !type.startsWith("text/html") || typeof payload !== "string")
      return payload;
    return payload.includes('<div id="swagger-ui">') ? withAppFrame(payload) : payload;
  });
  await app.register(swaggerUi, {
    routePrefix: "/docs",
    staticCSP: true,
    // Swagger UI sets a few inline styles; scripts stay 'self' only.
    transformStaticCSP: () =>
      contentSecurityPolicy.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'"),
    // The base layout leaves out Swagger UI's top bar (its logo and a field to load another document).
    uiConfig: {
      deepLinking: false,
      defaultModelsExpandDepth: 1,
      tryItOutEnabled: false,
      layout: "BaseLayout",
    },
    theme: {
      title: "pagegrade API documentation",
      css: [{ filename: "pagegrade.css", content: themeCss }],
      js: [{ filename: "pagegrade.js", content: themeScript }],
    },
  });
}
