/**
 * What every web page knows about its request: the signed-in user (from the session cookie) and the CSRF
 * token (a random value in its own cookie, echoed by every form; csrf.ts refuses a POST whose field does not
 * match the cookie). Cookies are HttpOnly, SameSite=Lax, and Secure when the request came over TLS.
 */
import { randomBytes } from "node:crypto";
import "@fastify/cookie";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Session, SessionService } from "../accounts/session-service.js";

export const sessionCookie = "pg_session";
export const csrfCookie = "pg_csrf";

declare module "fastify" {
  interface FastifyRequest {
    session: Session | null;
    csrfToken: string;
  }
}

export function cookieOptions(request: FastifyRequest, maxAgeSeconds?: number) {
  return {
    path: "/",
    httpOnly: true,
    sameSite: "lax" as const,
    secure: request.protocol === "https",
    ...(maxAgeSeconds !== undefined ? { maxAge: maxAgeSeconds } : {}),
  };
}

/** Loads the session and makes sure the request has a CSRF token. */
export function loadWebContext(sessions: SessionService) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    request.session = await sessions.find(request.cookies[sessionCookie]);
    let token = request.cookies[csrfCookie];
    if (!token || !/^[A-Za-z0-9_-]{43}$/.test(token)) {
      token = randomBytes(32).toString("base64url");
      reply.setCookie(csrfCookie, token, cookieOptions(request));
    }
    request.csrfToken = token;
  };
}
