/**
 * /register, /login, /logout and /account. A freshly made API key is shown in the answer to the POST that made
 * it (sign-up, regeneration) and nowhere else: it never passes through the session store, so no table, log or
 * WAL holds it; only its digest is kept (api-keys.ts).
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
import { accountBody, type FormState, loginBody, registerBody } from "./views/account.js";
import { errorBody } from "./views/site.js";
import { cookieOptions, csrfValid, sessionCookie } from "./web-context.js";

type Form = Record<string, string | undefined>;

export interface AccountRouteOptions {
  accounts: AccountService;
  sessions: SessionService;
  loginFailures: RateLimiter;
  quotas: Quotas;
}

export async function accountRoutes(
  app: FastifyInstance,
  { accounts, sessions, loginFailures, quotas }: AccountRouteOptions,
): Promise<void> {
  const startSession = async (request: FastifyRequest, reply: FastifyReply, account: Account) => {
    const token = await sessions.create(account.id);
    reply.setCookie(sessionCookie, token, cookieOptions(request, sessionLifetimeSeconds));
    return { account, token };
  };

  app.get("/register", async (request, reply) =>
    request.session
      ? seeOther(reply, "/reports")
      : sendHtml(request, reply, "Sign up", registerBody(request.csrfToken)),
  );

  app.post<{ Body: Form }>("/register", async (request, reply) => {
    if (!csrfValid(request)) return expired(request, reply);
    const email = (request.body.email ?? "").trim();
    const password = request.body.password ?? "";
    const errors: Record<string, string> = {};
    if (!isEmailAddress(email)) errors.email = "Enter a valid e-mail address.";
    if (password.length < minimumPasswordLength)
      errors.password = `The password needs at least ${minimumPasswordLength} characters.`;
    if (password.length > 256) errors.password = "The password may not be longer than 256 characters.";
    if (Object.keys(errors).length === 0) {
      // Counted once the form is complete, so typing mistakes do not use up a client's sign-ups.
      await quotas.charge("sign-ups", { address: request.ip });
      try {
        const { account, key } = await accounts.createUser(email, password);
        request.session = await startSession(request, reply, account);
        return showAccount(request, reply, { newKey: key });
      } catch (error) {
        if (!(error instanceof AccountError)) throw error;
        errors.email = "An account with this e-mail already exists.";
      }
    }
    return sendHtml(
      request,
      reply,
      "Sign up",
      registerBody(request.csrfToken, { values: { email }, errors }),
      422,
    );
  });

  app.get("/login", async (request, reply) =>
    request.session
      ? seeOther(reply, "/reports")
      : sendHtml(request, reply, "Log in", loginBody(request.csrfToken)),
  );

  app.post<{ Body: Form }>("/login", async (request, reply) => {
    if (!csrfValid(request)) return expired(request, reply);
    const email = (request.body.email ?? "").trim().toLowerCase();
    const state: FormState = { values: { email } };
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
      return seeOther(reply, "/reports");
    }
    await Promise.all([loginFailures.hit(request.ip), loginFailures.hit(email)]);
    state.message = "The e-mail or the password is not correct.";
    return sendHtml(request, reply, "Log in", loginBody(request.csrfToken, state), 401);
  });

  app.post("/logout", async (request, reply) => {
    if (!csrfValid(request)) return expired(request, reply);
    if (request.session) await sessions.destroy(request.session.token);
    reply.clearCookie(sessionCookie, cookieOptions(request));
    return seeOther(reply, "/");
  });

  /** The account page; `newKey` is a key just made, shown this once. */
  const showAccount = async (
    request: FastifyRequest,
    reply: FastifyReply,
    { status = 200, passwordState = {}, newKey = null }: AccountPageState = {},
  ) => {
    const session = request.session;
    if (!session) return seeOther(reply, "/login");
    const flash = await sessions.takeFlash(session.token);
    const keys = await accounts.listKeys(session.account.id);
    const view = {
      email: session.account.email,
      keys,
      newKey,
      origin: `${request.protocol}://${request.host}`,
      flash: newKey ? null : flash,
    };
    return sendHtml(request, reply, "Account", accountBody(request.csrfToken, view, passwordState), status);
  };

  app.get("/account", async (request, reply) => showAccount(request, reply));

  app.post("/account/key", async (request, reply) => {
    if (!csrfValid(request)) return expired(request, reply);
    if (!request.session) return seeOther(reply, "/login");
    const key = await accounts.regenerateKey(request.session.account.id);
    return showAccount(request, reply, { newKey: key });
  });

  app.post<{ Body: Form }>("/account/password", async (request, reply) => {
    if (!csrfValid(request)) return expired(request, reply);
    const session = request.session;
    if (!session) return seeOther(reply, "/login");
    try {
      await accounts.changePassword(
        session.account.id,
        request.body.current_password ?? "",
        request.body.new_password ?? "",
      );
    } catch (error) {
      if (!(error instanceof AccountError)) throw error;
      const field = error.message.startsWith("The current") ? "current_password" : "new_password";
      return showAccount(request, reply, {
        status: 422,
        passwordState: { errors: { [field]: error.message } },
      });
    }
    await sessions.destroyOthers(session.account.id, session.token);
    await sessions.setFlash(session.token, "Your password was changed; other sessions were logged out.");
    return seeOther(reply, "/account");
  });
}

interface AccountPageState {
  status?: number;
  passwordState?: FormState;
  newKey?: string | null;
}

/** A form whose CSRF token does not match: refused, with a way forward. */
export function expired(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return sendHtml(
    request,
    reply,
    "Form expired",
    errorBody("This form has expired", "Reload the page and submit the form again."),
    403,
  );
}
