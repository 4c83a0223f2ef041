/**
 * /docs: the OpenAPI document rendered by Swagger UI (`@fastify/swagger-ui`), every operation, schema and example
 * with a form to try it. Its scripts, styles and images are served from the package (nothing from a CDN, so it
 * works offline) under the pages' Content-Security-Policy, with inline styles allowed for Swagger UI's own; it
 * reads the same document as /api/v1/openapi.json.
 */
import swaggerUi from "@fastify/swagger-ui";
import type { FastifyInstance } from "fastify";
import { contentSecurityPolicy } from "./render.js";

export async function apiDocs(app: FastifyInstance): Promise<void> {
  await app.register(swaggerUi, {
    routePrefix: "/docs",
    staticCSP: true,
    // Swagger UI sets a few inline styles; scripts stay 'self' only.
    transformStaticCSP: () =>
      contentSecurityPolicy.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'"),
    uiConfig: { deepLinking: true, defaultModelsExpandDepth: 1, tryItOutEnabled: false },
  });
}
