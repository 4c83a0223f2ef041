/**
 * `pagegrade user reset-password --email <e> [--password-stdin]`: an operator sets a user's password when the
 * user cannot reset it by mail (mail not set up, mailbox lost). By default a random password (24 characters,
 * 144 bits) is made and printed alone on the last line of stdout, to hand to the user; with --password-stdin the
 * new password is read from stdin (its first line), so it never appears in the command line, the shell history
 * or the process list. The password rules are the web's. Every session of the user ends.
 */
import { randomBytes } from "node:crypto";
import { parseArgs } from "node:util";
import { AccountError, AccountService } from "../accounts/account-service.js";
import { SessionService } from "../accounts/session-service.js";
import { loadServiceConfig } from "../config.js";
import { UsageError } from "../errors.js";
import { openStore } from "../store/database.js";

export async function runResetPassword(args: string[]): Promise<number> {
  let values: { email?: string; "password-stdin"?: boolean };
  try {
    ({ values } = parseArgs({
      args,
      options: { email: { type: "string" }, "password-stdin": { type: "boolean" } },
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const email = values.email?.trim();
  if (!email) throw new UsageError("--email is required");
  const fromStdin = values["password-stdin"] === true;
  const password = fromStdin ? await firstLineOfStdin() : randomBytes(18).toString("base64url");
  const store = await openStore(loadServiceConfig().databaseUrl);
  try {
    const accounts = new AccountService(store);
    const account = await accounts.findByEmail(email);
    if (!account) throw new AccountError(`no user has the e-mail ${email.toLowerCase()}`);
    await accounts.setPassword(account.id, password);
    await new SessionService(store).destroyAll(account.id);
    process.stdout.write(
      fromStdin
        ? `Password of ${account.email} set; every session of theirs is signed out.\n`
        : `Password of ${account.email} set; every session of theirs is signed out. The new password, shown only now:\n${password}\n`,
    );
    return 0;
  } catch (error) {
    if (!(error instanceof AccountError)) throw error;
    process.stderr.write(`pagegrade: ${error.message}\n`);
    return 1;
  } finally {
    await store.close();
  }
}

/** The first line of stdin, without its line end (the whole of it when there is no line end). */
async function firstLineOfStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  return text.split(/\r?\n/)[0] ?? "";
}
