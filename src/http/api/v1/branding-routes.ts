/**
 * /api/v1/branding: the caller's brand name and logo, shown instead of pagegrade's on their crawls' audit pages
 * and on their PDFs. `PUT` takes a multipart form (`brand_name`, and `brand_logo` as a file; a form or JSON body
 * may set the name alone), `GET` shows it, `DELETE` removes it. The rules are the Brandings service's (422 naming
 * the field). It is the caller's workspace's (access.ts: today the user's own; a team's is the same row keyed by
 * its team).
 */
import multipart from "@fastify/multipart";
import type { FastifyInstance } from "fastify";
import { Type } from "typebox";
import { type BrandingRow, brandOwnerOf } from "../../../branding/branding-store.js";
import type { Brandings } from "../../../branding/brandings.js";
import { ValidationFailed } from "../../../errors.js";
import type { ApiAccess } from "./access.js";
import { errorResponses, Timestamp } from "./common-schema.js";

const Branding = Type.Object({
  object: Type.Literal("branding"),
  brand_name: Type.Union([Type.String(), Type.Null()]),
  logo: Type.Union([
    Type.Object({ type: Type.String({ description: "image/png or image/jpeg" }), bytes: Type.Integer() }),
    Type.Null(),
  ]),
  updated_at: Type.Union([Timestamp, Type.Null()]),
});
const BrandingEnvelope = Type.Object({ data: Branding, status: Type.Literal(200) });

/** Multipart bodies: a logo of up to 200 KB is accepted, up to 1 MiB refused with a 422, larger ones a 413. */
const maxUploadBytes = 1024 * 1024;

/** The upload's limit with room for the form's other fields and boundaries: past it, a 413. */
export const brandingBodyLimit = maxUploadBytes + 64 * 1024;

export async function brandingRoutes(
  app: FastifyInstance,
  { brandings, access }: { brandings: Brandings; access: ApiAccess },
): Promise<void> {
  await app.register(async (scope) => {
    await scope.register(multipart, {
      attachFieldsToBody: "keyValues",
      limits: { fileSize: maxUploadBytes, files: 1, fields: 5, fieldSize: 4096, parts: 6 },
    });

    scope.get(
      "/branding",
      {
        schema: {
          summary: "Show your branding",
          tags: ["account"],
          response: { 200: BrandingEnvelope, ...errorResponses() },
        },
      },
      async (request, reply) => {
        const owner = brandOwnerOf(await access.workspace(request));
        const row = await brandings.find(owner);
        return reply.send({ data: brandingObject(row), status: 200 });
      },
    );

    scope.put<{ Body: Record<string, unknown> | undefined }>(
      "/branding",
      {
        bodyLimit: brandingBodyLimit,
        schema: {
          summary: "Set your brand name and logo",
          description:
            "A multipart form: `brand_name` (at most 100 characters, one line) and `brand_logo` (a PNG or JPEG file of at most 200 KB, known by its bytes; SVG is refused). Either may be left out to keep what is set. Shown instead of pagegrade's name on your crawls' audit pages and on your report and audit PDFs.",
          tags: ["account"],
          response: { 200: BrandingEnvelope, ...errorResponses(413, 415, 422) },
        },
      },
      async (request, reply) => {
        const owner = brandOwnerOf(await access.workspace(request, "write"));
        const body = request.body ?? {};
        const name = body.brand_name;
        const logo = body.brand_logo;
        if (name !== undefined && typeof name !== "string")
          throw ValidationFailed.of("brand_name", "The brand name must be text.");
        if (logo !== undefined && !Buffer.isBuffer(logo))
          throw ValidationFailed.of(
            "brand_logo",
            "The brand logo must be sent as a file (multipart/form-data).",
          );
        const row = await brandings.save(owner, {
          ...(name !== undefined ? { brand_name: name } : {}),
          ...(logo ? { brand_logo: logo } : {}),
        });
        return reply.send({ data: brandingObject(row), status: 200 });
      },
    );

    scope.delete(
      "/branding",
      {
        schema: {
          summary: "Remove your branding (pagegrade's name is shown again)",
          tags: ["account"],
          response: {
            200: Type.Object({
              object: Type.Literal("branding"),
              deleted: Type.Boolean(),
              status: Type.Literal(200),
            }),
            ...errorResponses(),
          },
        },
      },
      async (request, reply) => {
        const owner = brandOwnerOf(await access.workspace(request, "write"));
        const deleted = await brandings.delete(owner);
        return reply.send({ object: "branding", deleted, status: 200 });
      },
    );
  });
}

function brandingObject(row: BrandingRow | undefined) {
  return {
    object: "branding" as const,
    brand_name: row?.brand_name ?? null,
    logo: row?.logo && row.logo_type ? { type: row.logo_type, bytes: row.logo.length } : null,
    updated_at: row?.updated_at ?? null,
  };
}
