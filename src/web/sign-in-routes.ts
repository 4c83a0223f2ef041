/**
 * Signing up, logging in and out (/register, /login, /logout). Sign-up answers with a redirect to the account
 * page (POST/redirect/GET, so a refresh does not sign up again), which offers the first steps: analyse a page,
 * create an API key. The account has no key until then: a key is shown only in the answer to the POST that made
 * it (account-page.ts), never carried through a redirect. Failed log-ins are limited per client address and per
 * e-mail. Both forms carry an optional `next` (an invitation link's page, say): once signed in, the user returns
 * there, when it is a path on this site (return-path.ts; anything else is ignored, no open redirect).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import {
  type Account,
  AccountError,
  type AccountService,
  isEmailAddress,
  minimumPasswordLength,
} from "../accounts/account-service.js";
import { type SessionService, sessionLifetimeSeconds } from "../accounts/session-service.js";
import type { Quotas } from "../limits/quotas.js";
import type { RateLimiter } from "../limits/rate-limiter.js";
import { seeOther, sendHtml } from "./render.js";
import { safeReturnPath } from "./return-path.js";
import { type FormState, loginBody, registerBody } from "./views/account.js";
import { chooseWorkspace, cookieOptions, sessionCookie } from "./web-context.js";

type Form = Record<string, string | undefined>;
type NextQuery = { Querystring: { next?: string } };

export interface SignInRouteOptions {
  accounts: AccountService;
  sessions: SessionService;
  loginFailures: RateLimiter;
  quotas: Quotas;
}

export async function signInRoutes(app: FastifyInstance, options: SignInRouteOptions): Promise<void> {
  const { accounts, sessions, loginFailures, quotas } = options;
  const startSession = async (request: FastifyRequest, reply: FastifyReply, account: Account) => {
    const token = await sessions.create(account.id);
    reply.setCookie(sessionCookie, token, cookieOptions(request, sessionLifetimeSeconds));
    return { account, token };
  };

  app.get<NextQuery>("/register", async (request, reply) => {
    const next = safeReturnPath(request.query.next);
    return request.session
      ? seeOther(reply, next ?? "/reports")
      : sendHtml(request, reply, "Sign up", registerBody(request.csrfToken, { next }));
  });

  app.post<{ Body: Form }>("/register", async (request, reply) => {
    const email = (request.body.email ?? "").trim();
    const password = request.body.password ?? "";
    const next = safeReturnPath(request.body.next);
    const errors: Record<string, string> = {};
    if (!isEmailAddress(email)) errors.email = "Enter a valid e-mail address.";
    if (password.length < minimumPasswordLength)
      errors.password = `The password needs at least ${minimumPasswordLength} characters.`;
    if (password.length > 256) errors.password = "The password may not be longer than 256 characters.";
    if (Object.keys(errors).length === 0) {
      // Counted once the form is complete, so typing mistakes do not use up a client's sign-ups.
      await quotas.charge("sign-ups", { address: request.ip });
      try {
        const account = await accounts.createUserWithoutKey(email, password);
        const { token } = await startSession(request, reply, account);
        await sessions.setFlash(token, "Welcome: your account is ready.");
        return seeOther(reply, next ?? "/account");
      } catch (error) {
        if (!(error instanceof AccountError)) throw error;
        errors.email = "An account with this e-mail already exists.";
      }
    }
    return sendHtml(
      request,
      reply,
      "Sign up",
      registerBody(request.csrfToken, { values: { email }, errors, next }),
      422,
    );
  });

  app.get<NextQuery>("/login", async (request, reply) => {
    const next = safeReturnPath(request.query.next);
    return request.session
      ? seeOther(reply, next ?? "/reports")
      : sendHtml(request, reply, "Log in", loginBody(request.csrfToken, { next }));
  });

  app.post<{ Body: Form }>("/login", async (request, reply) => {
    const email = (request.body.email ?? "").trim().toLowerCase();
    const next = safeReturnPath(request.body.next);
    const state: FormState = { values: { email }, next };
    // Failed log-ins count per address and per e-mail, so neither guessing many passwords for one account nor
    // spraying many accounts from one address gets far. Past the limit even a right password waits.
    const [byAddress, byEmail] = await Promise.all([
      loginFailures.exhausted(request.ip),
      loginFailures.exhausted(email),
    ]);
    if (byAddress || byEmail) {
      const wait = Math.max(byAddress?.retryAfterSeconds ?? 0, byEmail?.retryAfterSeconds ?? 0);
      reply.header("retry-after", String(wait));
      state.message = `Too many failed log-ins. Try again in ${Math.ceil(wait / 60)} minutes.`;
      return sendHtml(request, reply, "Log in", loginBody(request.csrfToken, state), 429);
    }
    const account = await accounts.verifyLogin(email, request.body.password ?? "");
    if (account) {
      await startSession(request, reply, account);
      return seeOther(reply, next ?? "/reports");
    }
    await Promise.all([loginFailures.hit(request.ip), loginFailures.hit(email)]);
    state.message = "The e-mail or the password is not correct.";
    return sendHtml(request, reply, "Log in", loginBody(request.csrfToken, state), 401);
  });

  app.post("/logout", { config: { anyWorkspace: true } }, async (request, reply) => {
    if (request.session) await sessions.destroy(request.session.token);
    reply.clearCookie(sessionCookie, cookieOptions(request));
    chooseWorkspace(request, reply, null);
    return seeOther(reply, "/");
  });
}
