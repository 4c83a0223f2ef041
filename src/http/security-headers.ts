/**
 * Security headers on every response, API and pages alike: no sniffing, no framing, no referrer leaks, a
 * deny-all CSP for anything that is not one of our HTML pages (which set their own), and HSTS over TLS.
 */
import type { FastifyInstance } from "fastify";

const denyAll = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'";

export function installSecurityHeaders(app: FastifyInstance): void {
  app.addHook("onSend", (request, reply, payload, done) => {
    reply.header("x-content-type-options", "nosniff");
    if (!reply.hasHeader("x-frame-options")) reply.header("x-frame-options", "DENY");
    if (!reply.hasHeader("referrer-policy")) reply.header("referrer-policy", "no-referrer");
    if (!reply.hasHeader("content-security-policy")) reply.header("content-security-policy", denyAll);
    reply.header("cross-origin-opener-policy", "same-origin");
    if (request.protocol === "https")
      reply.header("strict-transport-security", "max-age=31536000; includeSubDomains");
    done(null, payload);
  });
}
