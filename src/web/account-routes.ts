/**
 * The account (/account, signed-in): the account page, a new API key (shown once, in the answer to the POST
 * that made it) and changing the password, which logs out every other session.
 */
import type { FastifyInstance } from "fastify";
import { AccountError, type AccountService } from "../accounts/account-service.js";
import type { SessionService } from "../accounts/session-service.js";
import { sendAccountPage } from "./account-page.js";
import { seeOther } from "./render.js";
import { signedInSession } from "./signed-in.js";

type Form = Record<string, string | undefined>;

export interface AccountRouteOptions {
  accounts: AccountService;
  sessions: SessionService;
}

export async function accountRoutes(app: FastifyInstance, options: AccountRouteOptions): Promise<void> {
  const { accounts, sessions } = options;

  app.get("/account", async (request, reply) => sendAccountPage(options, request, reply));

  app.post("/account/key", async (request, reply) => {
    const key = await accounts.regenerateKey(signedInSession(request).account.id);
    return sendAccountPage(options, request, reply, { newKey: key });
  });

  app.post<{ Body: Form }>("/account/password", async (request, reply) => {
    const session = signedInSession(request);
    try {
      await accounts.changePassword(
        session.account.id,
        request.body.current_password ?? "",
        request.body.new_password ?? "",
      );
    } catch (error) {
      if (!(error instanceof AccountError)) throw error;
      const field = error.message.startsWith("The current") ? "current_password" : "new_password";
      return sendAccountPage(options, request, reply, {
        status: 422,
        passwordState: { errors: { [field]: error.message } },
      });
    }
    await sessions.destroyOthers(session.account.id, session.token);
    await sessions.setFlash(session.token, "Your password was changed; other sessions were logged out.");
    return seeOther(reply, "/account");
  });
}
