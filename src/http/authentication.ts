/**
 * Bearer authentication for /api: exactly "Authorization: Bearer <key>" (one space, no other scheme, never a
 * key in the query or body). Missing, malformed, unknown and revoked keys get the same 401, with
 * WWW-Authenticate; repeated failures from one address are throttled (429).
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Account, AccountService } from "../accounts/account-service.js";
import type { RateLimiter } from "../limits/rate-limiter.js";
import { problems, sendProblem } from "./problem.js";

declare module "fastify" {
  interface FastifyRequest {
    account: Account;
    apiKeyId: number;
    /** The account's reports version as read with the key (see AccountService.authenticate). */
    reportsVersion: number;
  }
}

const bearer = /^Bearer ([^\s]+)$/;

export function authenticate(accounts: AccountService, failures: RateLimiter | null) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    const header = request.headers.authorization;
    const key = typeof header === "string" ? bearer.exec(header)?.[1] : undefined;
    const found = key ? await accounts.authenticate(key) : null;
    if (found) {
      request.account = found.account;
      request.apiKeyId = found.keyId;
      request.reportsVersion = found.reportsVersion;
      reply.header("cache-control", "no-store");
      return undefined;
    }
    if (failures) {
      const verdict = await failures.hit(request.ip);
      if (!verdict.allowed) {
        reply.header("retry-after", String(verdict.retryAfterSeconds));
        return sendProblem(request, reply, problems.tooManyRequests());
      }
    }
    reply.header(
      "www-authenticate",
      header === undefined ? 'Bearer realm="api"' : 'Bearer realm="api", error="invalid_token"',
    );
    return sendProblem(request, reply, problems.unauthenticated());
  };
}
