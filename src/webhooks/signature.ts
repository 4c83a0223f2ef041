/**
 * Standard Webhooks signatures: `v1,` and the base64 HMAC-SHA256 of "<id>.<timestamp>.<body>", keyed with the
 * base64-decoded part of the secret after "whsec_".
 */
import { createHmac } from "node:crypto";

export function signatureOf(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  return `v1,${createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest("base64")}`;
}
