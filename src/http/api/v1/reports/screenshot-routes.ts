/** GET /api/v1/reports/{id}/screenshot: the viewport of the report's latest rendered analysis. */
import type { FastifyInstance } from "fastify";
import { Type } from "typebox";
import { found } from "../../../../accounts/access.js";
import { errorResponses } from "../common-schema.js";
import type { ApiContext } from "../context.js";

export const showScreenshot = {
  summary: "The viewport screenshot of the report's latest rendered analysis",
  description:
    "412×823 CSS pixels, as the page looked when its rendered analysis was taken. 404 when the report has no rendered analysis.",
  tags: ["reports"],
  params: Type.Object({ id: Type.Integer({ minimum: 1 }) }),
  response: {
    200: {
      description: "The screenshot",
      content: {
        "image/webp": { schema: { type: "string", contentMediaType: "image/webp" } },
        "image/jpeg": { schema: { type: "string", contentMediaType: "image/jpeg" } },
      },
    },
    ...errorResponses(404),
  },
};

export async function reportScreenshotRoutes(
  app: FastifyInstance,
  { history, access }: ApiContext,
): Promise<void> {
  app.get<{ Params: { id: number } }>(
    "/reports/:id/screenshot",
    { schema: showScreenshot },
    async (request, reply) => {
      const workspace = await access.workspace(request);
      const screenshot = found(await history.screenshot(workspace, request.params.id));
      return reply
        .type(screenshot.mediaType)
        .header("cache-control", "private, no-cache")
        .send(screenshot.data);
    },
  );
}
