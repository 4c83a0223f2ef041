/**
 * Secrets at rest: sealed with AES-256-GCM under PAGEGRADE_ENCRYPTION_KEY ("v1:" + base64 of nonce, tag and
 * ciphertext). Without a key they are stored as they are ("plain:"), which the README warns about; a secret
 * stored before a key was set still opens. Webhook signing secrets (webhooks/webhook-secret.ts) are sealed here,
 * and a crawl's request headers too (crawls/crawl-headers.ts), but those only ever with a key.
 */
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

export class SecretBox {
  constructor(private readonly key: Buffer | null) {}

  /** Whether sealed secrets are encrypted (a key is set), not stored as they are. */
  get encrypts(): boolean {
    return this.key !== null;
  }

  seal(secret: string): string {
    if (!this.key) return `plain:${secret}`;
    const nonce = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.key, nonce);
    const sealed = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
    return `v1:${Buffer.concat([nonce, cipher.getAuthTag(), sealed]).toString("base64")}`;
  }

  open(stored: string): string {
    if (stored.startsWith("plain:")) return stored.slice("plain:".length);
    if (!stored.startsWith("v1:")) throw new Error("unknown secret format");
    if (!this.key) throw new Error("a secret is encrypted but PAGEGRADE_ENCRYPTION_KEY is not set");
    const raw = Buffer.from(stored.slice(3), "base64");
    const decipher = createDecipheriv("aes-256-gcm", this.key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
  }
}
