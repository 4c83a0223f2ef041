/**
 * The account page (e-mail, API keys, password form), sent by the account routes and by sign-up. A key just
 * made is shown in the answer to the POST that made it and nowhere else: it never passes through the session
 * store, so no table, log or WAL holds it; only its digest is kept (api-keys.ts).
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import type { AccountService } from "../accounts/account-service.js";
import type { SessionService } from "../accounts/session-service.js";
import { sendHtml } from "./render.js";
import { signedInSession } from "./signed-in.js";
import { accountBody, type FormState } from "./views/account.js";

export interface AccountPageState {
  status?: number;
  passwordState?: FormState;
  /** A key just made, shown this once. */
  newKey?: string | null;
}

export async function sendAccountPage(
  { accounts, sessions }: { accounts: AccountService; sessions: SessionService },
  request: FastifyRequest,
  reply: FastifyReply,
  { status = 200, passwordState = {}, newKey = null }: AccountPageState = {},
): Promise<FastifyReply> {
  const session = signedInSession(request);
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
}
