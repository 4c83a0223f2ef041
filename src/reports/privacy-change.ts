/**
 * Changing who may see a shared page (a report, a crawl's audit), by part 1's rules: a password only where privacy
 * is 2 and required there (unless one is already set), at most 128 characters, stored as its Argon2id hash, and
 * cleared when the privacy leaves 2.
 */
import { hashPassword } from "../accounts/passwords.js";
import { ValidationFailed } from "../errors.js";

export const privacyLevels = { public: 0, private: 1, password: 2 } as const;
const maxPasswordLength = 128;

export interface PrivacySettings {
  privacy: number;
  password_hash: string | null;
}

export function checkPassword(password: string | undefined): void {
  if (password !== undefined && password.length > maxPasswordLength) {
    throw ValidationFailed.of(
      "password",
      `The password field must not be greater than ${maxPasswordLength} characters.`,
    );
  }
}

/** The columns to write for the requested privacy and password (none when nothing changes). */
export async function privacyChanges(
  existing: PrivacySettings,
  input: { privacy?: number; password?: string },
): Promise<Partial<PrivacySettings>> {
  checkPassword(input.password);
  const changes: Partial<PrivacySettings> = {};
  const privacy = input.privacy ?? existing.privacy;
  if (privacy !== existing.privacy) changes.privacy = privacy;
  if (privacy === privacyLevels.password) {
    if (input.password !== undefined) changes.password_hash = await hashPassword(input.password);
    else if (existing.password_hash === null) {
      throw ValidationFailed.of("password", "The password field is required when privacy is 2.");
    }
  } else if (existing.password_hash !== null) {
    changes.password_hash = null;
  }
  return changes;
}
