/**
 * Password reset on the web: /forgot-password asks for a link (the same answer for every well-formed address,
 * limited per address and per client), /reset-password?token=… sets a new password with it, ends every
 * session of the account and signs in here. Without mail set up, both say so and point to the operator's
 * `pagegrade user reset-password`.
 */
import type { FastifyInstance } from "fastify";
import { AccountError, isEmailAddress } from "../accounts/account-service.js";
import type { PasswordResets } from "../accounts/password-resets.js";
import { invalidLinkMessage } from "../accounts/password-resets.js";
import { type SessionService, sessionLifetimeSeconds } from "../accounts/session-service.js";
import type { RateLimiter } from "../limits/rate-limiter.js";
import { seeOther, sendHtml } from "./render.js";
import {
  forgotPasswordBody,
  invalidResetLinkBody,
  mailNotSetUpBody,
  resetLinkSentBody,
  resetPasswordBody,
} from "./views/password-reset.js";
import { cookieOptions, sessionCookie } from "./web-context.js";

type Form = Record<string, string | undefined>;

export interface PasswordResetRouteOptions {
  passwordResets: PasswordResets;
  sessions: SessionService;
  /** Reset requests per e-mail address and per client address. */
  resetRequests: RateLimiter;
}

export async function passwordResetRoutes(
  app: FastifyInstance,
  options: PasswordResetRouteOptions,
): Promise<void> {
  const { passwordResets, sessions, resetRequests } = options;
  const title = "Reset your password";

  app.get("/forgot-password", async (request, reply) =>
    passwordResets.mailIsSetUp
      ? sendHtml(request, reply, title, forgotPasswordBody(request.csrfToken))
      : sendHtml(request, reply, title, mailNotSetUpBody()),
  );

  app.post<{ Body: Form }>("/forgot-password", async (request, reply) => {
    if (!passwordResets.mailIsSetUp) return sendHtml(request, reply, title, mailNotSetUpBody(), 503);
    const email = (request.body.email ?? "").trim().toLowerCase();
    if (!isEmailAddress(email)) {
      const errors = { email: "Enter a valid e-mail address." };
      return sendHtml(
        request,
        reply,
        title,
        forgotPasswordBody(request.csrfToken, { values: { email }, errors }),
        422,
      );
    }
    // Counted per submitted address (known or not, so the limit says nothing about accounts) and per client.
    const [byAddress, byClient] = await Promise.all([
      resetRequests.hit(`email:${email}`),
      resetRequests.hit(`client:${request.ip}`),
    ]);
    if (!byAddress.allowed || !byClient.allowed) {
      const wait = Math.max(
        byAddress.allowed ? 0 : byAddress.retryAfterSeconds,
        byClient.allowed ? 0 : byClient.retryAfterSeconds,
      );
      reply.header("retry-after", String(wait));
      const message = `Too many reset requests. Try again in ${Math.ceil(wait / 60)} minutes.`;
      return sendHtml(
        request,
        reply,
        title,
        forgotPasswordBody(request.csrfToken, { values: { email }, message }),
        429,
      );
    }
    await passwordResets.request(email);
    return sendHtml(request, reply, title, resetLinkSentBody(email));
  });

  app.get<{ Querystring: { token?: string } }>("/reset-password", async (request, reply) => {
    const token = typeof request.query.token === "string" ? request.query.token : "";
    if (!(await passwordResets.isLive(token))) {
      return sendHtml(request, reply, title, invalidResetLinkBody(invalidLinkMessage), 410);
    }
    return sendHtml(request, reply, title, resetPasswordBody(request.csrfToken, token));
  });

  app.post<{ Body: Form }>("/reset-password", async (request, reply) => {
    const token = request.body.token ?? "";
    const password = request.body.password ?? "";
    try {
      const account = await passwordResets.reset(token, password);
      const sessionToken = await sessions.create(
        account.id,
        "Your password is changed; every other session is signed out.",
      );
      reply.setCookie(sessionCookie, sessionToken, cookieOptions(request, sessionLifetimeSeconds));
      return seeOther(reply, "/account");
    } catch (error) {
      if (!(error instanceof AccountError)) throw error;
      if (error.message === invalidLinkMessage) {
        return sendHtml(request, reply, title, invalidResetLinkBody(error.message), 410);
      }
      const errors = { password: error.message };
      return sendHtml(request, reply, title, resetPasswordBody(request.csrfToken, token, { errors }), 422);
    }
  });
}
