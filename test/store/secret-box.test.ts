/**
 * Webhook secrets at rest: sealed with AES-256-GCM under PAGEGRADE_ENCRYPTION_KEY, kept as they are without it;
 * a key set later still opens the secrets stored before it; a wrong key or a changed byte is refused, never
 * turned into a wrong secret.
 */
import { describe, expect, it } from "vitest";
import { SecretBox } from "../../src/store/secret-box.js";
import { newWebhookSecret } from "../../src/webhooks/webhook-secret.js";

describe("webhook secrets at rest", () => {
  const secret = newWebhookSecret();
  const key = Buffer.alloc(32, 7);

  it("seals with a key (a fresh nonce each time) and opens what it sealed", () => {
    const box = new SecretBox(key);
    const sealed = box.seal(secret);
    expect(sealed.startsWith("v1:")).toBe(true);
    expect(sealed).not.toContain(secret.slice("whsec_".length, 20));
    expect(box.seal(secret)).not.toBe(sealed);
    expect(box.open(sealed)).toBe(secret);
  });

  it("keeps secrets as they are without a key, and opens them once a key is set", () => {
    const stored = new SecretBox(null).seal(secret);
    expect(stored).toBe(`plain:${secret}`);
    expect(new SecretBox(key).open(stored)).toBe(secret);
  });

  it("refuses a sealed secret without its key, with another key, or changed", () => {
    const sealed = new SecretBox(key).seal(secret);
    expect(() => new SecretBox(null).open(sealed)).toThrow("PAGEGRADE_ENCRYPTION_KEY is not set");
    expect(() => new SecretBox(Buffer.alloc(32, 8)).open(sealed)).toThrow();
    const raw = Buffer.from(sealed.slice(3), "base64");
    raw[raw.length - 1] = (raw[raw.length - 1] ?? 0) ^ 1;
    expect(() => new SecretBox(key).open(`v1:${raw.toString("base64")}`)).toThrow();
    expect(() => new SecretBox(key).open("v9:whatever")).toThrow("unknown secret format");
  });
});
