/**
 * Forged forms: every request that can change something (any method but GET, HEAD and OPTIONS) must carry the
 * request's CSRF token (web-context.ts) in its `_csrf` field; one that does not gets the "form expired" page
 * (403), before any other rule of its route is looked at. A hook of the whole web scope, so no page can forget.
 * The one exception is a route marked `config: { signedLink: true }`, whose URL carries a signed token of its own
 * that a forger cannot know (a mail's unsubscribe link, posted by mail clients without any form). The token a
 * form echoes names the workspace it was drawn in (web-context.ts), so a form from before a switch of workspace is
 * refused too; a route marked `config: { anyWorkspace: true }` (switching the workspace, logging out) acts in no
 * workspace and takes a form drawn in any.
 */
import { timingSafeEqual } from "node:crypto";
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from "fastify";
import { sendHtml } from "./render.js";
import { errorBody } from "./views/site.js";

const safeMethods = new Set(["GET", "HEAD", "OPTIONS"]);

declare module "fastify" {
  interface FastifyContextConfig {
    /** The route's URL carries its own signed token: its POST needs no CSRF token. */
    signedLink?: boolean;
    /** The route acts in no workspace: a form drawn in any workspace may post to it. */
    anyWorkspace?: boolean;
  }
}

/**
 * The preHandler hook: refuses a state-changing request whose form does not carry the CSRF token. Written with
 * `done` rather than async, so a refusal stops the hooks and the handler for certain (done is never called).
 */
export function refuseForgedForms(
  request: FastifyRequest,
  reply: FastifyReply,
  done: HookHandlerDoneFunction,
): void {
  const signedLink = request.routeOptions.config.signedLink === true;
  if (safeMethods.has(request.method) || signedLink || csrfValid(request)) done();
  else expiredFormPage(request, reply);
}

/** Whether a submitted form carries the request's CSRF token (drawn in the current workspace, unless any will do). */
export function csrfValid(request: FastifyRequest): boolean {
  const field = (request.body as Record<string, unknown> | undefined)?._csrf;
  if (typeof field !== "string") return false;
  let sent = field;
  let wanted = request.csrfToken;
  if (request.routeOptions.config.anyWorkspace === true) {
    sent = sent.split(".")[0] ?? "";
    wanted = request.csrfBase;
  }
  const expected = Buffer.from(wanted);
  const actual = Buffer.from(sent);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/** A form whose CSRF token does not match: refused, with a way forward. */
function expiredFormPage(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return sendHtml(
    request,
    reply,
    "Form expired",
    errorBody("This form has expired", "Reload the page and submit the form again."),
    403,
  );
}
