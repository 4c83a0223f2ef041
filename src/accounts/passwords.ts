/**
 * Password hashing with Argon2id (@node-rs/argon2, OWASP's recommended parameters), for account and report
 * passwords alike. The hash string carries its parameters, so they can be raised later without breaking old
 * hashes.
 */
import { hash, verify } from "@node-rs/argon2";

export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}
