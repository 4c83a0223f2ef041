/**
 * Webhook signing secrets: made here (`whsec_` and 32 random bytes in base64, the Standard Webhooks form), shown
 * once, and stored sealed (store/secret-box.ts).
 */
import { randomBytes } from "node:crypto";

export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

/** "whsec_…abcd": enough to tell secrets apart, nothing to sign with. */
export function secretHint(secret: string): string {
  return `whsec_…${secret.slice(-4)}`;
}
