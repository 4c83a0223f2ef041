/**
 * `pagegrade user create --email <e> [--password <p>]` and `pagegrade key create --email <e> [--keep-old]`:
 * account administration against DATABASE_URL. The new API key is printed alone on the last line of stdout,
 * so scripts can capture it with `tail -n 1`.
 */
import { type ParseArgsConfig, parseArgs } from "node:util";
import { AccountError, AccountService } from "../accounts/account-service.js";
import { loadServiceConfig } from "../config.js";
import { UsageError, ValidationFailed } from "../errors.js";
import { openStore } from "../store/database.js";
import type { Store } from "../store/store.js";

export async function runUser(args: string[]): Promise<number> {
  const [action, ...rest] = args;
  if (action !== "create")
    throw new UsageError('user takes the action "create", "reset-password", "list", "disable" or "enable"');
  const { values } = parse(rest, { email: { type: "string" }, password: { type: "string" } });
  const email = required(values.email, "--email");
  return withAccounts(async (accounts) => {
    const { account, key } = await accounts.createUser(
      email,
      typeof values.password === "string" ? values.password : null,
    );
    process.stdout.write(
      `Created user ${account.email} (id ${account.id}). Their API key, shown only now:\n${key}\n`,
    );
  });
}

export async function runKey(args: string[]): Promise<number> {
  const [action, ...rest] = args;
  if (action !== "create") throw new UsageError('key takes the action "create"');
  const { values } = parse(rest, { email: { type: "string" }, "keep-old": { type: "boolean" } });
  const email = required(values.email, "--email");
  return withAccounts(async (accounts) => {
    const keepOld = values["keep-old"] === true;
    const { account, key } = await accounts.issueKey(email, keepOld);
    const revoked = keepOld ? "Earlier keys still work." : "Earlier keys are revoked.";
    process.stdout.write(`New API key for ${account.email}, shown only now. ${revoked}\n${key}\n`);
  });
}

export function parse(args: string[], options: NonNullable<ParseArgsConfig["options"]>) {
  try {
    return parseArgs({ args, options, allowPositionals: false });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

export function required(value: unknown, flag: string): string {
  if (typeof value !== "string" || value.trim() === "") throw new UsageError(`${flag} is required`);
  return value;
}

/** Runs `work` over the database of DATABASE_URL; an AccountError is a one-line message and exit code 1. */
export async function withStore(work: (store: Store) => Promise<void>): Promise<number> {
  const store = await openStore(loadServiceConfig().databaseUrl);
  try {
    await work(store);
    return 0;
  } catch (error) {
    if (error instanceof AccountError || error instanceof ValidationFailed) {
      process.stderr.write(`pagegrade: ${error.message}\n`);
      return 1;
    }
    throw error;
  } finally {
    await store.close();
  }
}

function withAccounts(work: (accounts: AccountService) => Promise<void>): Promise<number> {
  return withStore((store) => work(new AccountService(store)));
}
