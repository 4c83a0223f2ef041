/**
 * Switching the workspace the signed-in pages act in (the header's switcher, POST /workspace): the user's own, or
 * one of their teams. The choice is a cookie (web-context.ts), checked against the user's memberships on every
 * request; a team they are not in is the 404 page here. The answer leads back to the list the switcher was on
 * (`next`, one of the lists, so it cannot lead off the site nor to another workspace's resource).
 */
import type { FastifyInstance } from "fastify";
import { ResourceNotFound } from "../errors.js";
import { seeOther } from "./render.js";
import { signedInSession } from "./signed-in.js";
import { chooseWorkspace, listOf, teamNamed } from "./web-context.js";

export async function workspaceRoutes(app: FastifyInstance): Promise<void> {
  app.post<{ Body: Record<string, unknown> }>(
    "/workspace",
    { config: { anyWorkspace: true } },
    async (request, reply) => {
      signedInSession(request);
      const team = request.body?.team;
      const next = listOf(typeof request.body?.next === "string" ? request.body.next : "");
      if (team === "" || team === undefined) {
        chooseWorkspace(request, reply, null);
        return seeOther(reply, next);
      }
      const chosen = teamNamed(request.workspaces?.teams ?? [], team);
      if (!chosen) throw new ResourceNotFound();
      chooseWorkspace(request, reply, chosen.id);
      return seeOther(reply, next);
    },
  );
}
