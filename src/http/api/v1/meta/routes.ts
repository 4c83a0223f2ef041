/** /api/v1/account, /api/v1/checks and /api/v1/openapi.json. */

import type { FastifyInstance } from "fastify";
import { Type } from "typebox";
import { catalogue } from "../../../../analysis/catalogue.js";
import { errorResponses, Timestamp } from "../common-schema.js";
import type { ApiContext } from "../context.js";

const Account = Type.Object({
  id: Type.Integer(),
  object: Type.Literal("account"),
  email: Type.String(),
  api_keys: Type.Array(
    Type.Object({
      id: Type.Integer(),
      key: Type.String({ description: "Masked: prefix and last 4" }),
      created_at: Timestamp,
    }),
  ),
  created_at: Timestamp,
  updated_at: Timestamp,
});

const CheckEntry = Type.Object({
  id: Type.String(),
  category: Type.String(),
  importance: Type.String(),
  title: Type.String(),
  description: Type.String(),
  how_to_fix: Type.String(),
});

export async function metaRoutes(app: FastifyInstance, { accounts }: ApiContext): Promise<void> {
  app.get(
    "/account",
    {
      schema: {
        summary: "The caller's account",
        tags: ["account"],
        response: { 200: Type.Object({ data: Account, status: Type.Literal(200) }), ...errorResponses() },
      },
    },
    async (request) => {
      const { id, email, created_at, updated_at } = request.account;
      const apiKeys = await accounts.listKeys(id);
      return {
        data: { id, object: "account", email, api_keys: apiKeys, created_at, updated_at },
        status: 200,
      };
    },
  );

  const cataloguePayload = JSON.stringify({ data: catalogue, status: 200 });
  app.get(
    "/checks",
    {
      schema: {
        summary: "The catalogue of checks",
        tags: ["checks"],
        response: {
          200: Type.Object({ data: Type.Array(CheckEntry), status: Type.Literal(200) }),
          ...errorResponses(),
        },
      },
    },
    async (_request, reply) => reply.type("application/json; charset=utf-8").send(cataloguePayload),
  );
}
