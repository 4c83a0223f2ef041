/**
 * The account (/account, signed-in): the account page, a new API key after a confirmation step (shown once, in
 * the answer to the POST that made it) and changing the password, which logs out every other session.
 */
import type { FastifyInstance } from "fastify";
import { AccountError, type AccountService } from "../accounts/account-service.js";
import type { SessionService } from "../accounts/session-service.js";
import { sendAccountPage } from "./account-page.js";
import { seeOther, sendHtml } from "./render.js";
import { signedInSession } from "./signed-in.js";
import { confirmBody } from "./views/forms.js";

type Form = Record<string, string | undefined>;

export interface AccountRouteOptions {
  accounts: AccountService;
  sessions: SessionService;
}

export async function accountRoutes(app: FastifyInstance, options: AccountRouteOptions): Promise<void> {
  const { accounts, sessions } = options;

  app.get("/account", async (request, reply) => sendAccountPage(options, request, reply));

  app.get("/account/key", async (request, reply) =>
    sendHtml(
      request,
      reply,
      "Regenerate the API key",
      confirmBody(request.csrfToken, "Regenerate your API key?", "/account/key", "/account", {
        consequence:
          "The current key stops working at once: every program that calls the API with it needs the new one.",
        button: "Yes, regenerate the key",
      }),
    ),
  );

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
