/**
 * Pages for signed-in users only. Their routes are registered in one scope whose preHandler hook sends a
 * visitor without a session to /login (303) before the route runs, so no page has to check, and none can
 * forget; inside that scope `signedInSession` is the session.
 */
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from "fastify";
import type { Session } from "../accounts/session-service.js";
import { seeOther } from "./render.js";

/** The preHandler hook of the signed-in scope (with `done`, so a redirect stops the route for certain). */
export function requireSignIn(
  request: FastifyRequest,
  reply: FastifyReply,
  done: HookHandlerDoneFunction,
): void {
  if (request.session) done();
  else seeOther(reply, "/login");
}

/** The signed-in user's session, in a route of the signed-in scope. */
export function signedInSession(request: FastifyRequest): Session {
  if (!request.session)
    throw new Error(`${request.url} is a signed-in page registered outside the signed-in scope`);
  return request.session;
}
