/**
 * Sends a web page: the layout around a body, with the security headers every page carries (a CSP without
 * inline scripts or styles, no framing, no sniffing) and no caching of personal pages.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import type { HtmlValue } from "./html.js";
import { layout, type SharedShell } from "./layout.js";
import { errorBody } from "./views/site.js";

export const contentSecurityPolicy =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'";

export function sendHtml(
  request: FastifyRequest,
  reply: FastifyReply,
  title: string,
  body: HtmlValue,
  status = 200,
  shared?: SharedShell,
): FastifyReply {
  const page = layout({
    title,
    user: request.session?.account.email ?? null,
    csrfToken: request.csrfToken,
    workspaces: request.workspaces,
    path: request.url,
    body,
    ...(shared ? { shared } : {}),
  });
  return reply
    .code(status)
    .header("content-security-policy", contentSecurityPolicy)
    .header("x-frame-options", "DENY")
    .header("x-content-type-options", "nosniff")
    .header("referrer-policy", "same-origin")
    .header("cache-control", "no-store")
    .type("text/html; charset=utf-8")
    .send(page.value);
}

/** Redirect after a successful POST (303, so the browser follows with GET). */
export function seeOther(reply: FastifyReply, location: string): FastifyReply {
  return reply.code(303).header("location", location).send();
}

/** The page for anything that is not there, or that the visitor may not see (the same answer for both). */
export function notFoundPage(request: FastifyRequest, reply: FastifyReply, status = 404): FastifyReply {
  return sendHtml(
    request,
    reply,
    "Not found",
    errorBody("Page not found", "There is nothing here, or you may not see it."),
    status,
  );
}
