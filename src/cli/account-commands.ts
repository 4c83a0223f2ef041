/**
 * `pagegrade user create --email <e> [--password <p>]` and `pagegrade key create --email <e> [--keep-old]`:
 * account administration against DATABASE_URL. The new API key is printed alone on the last line of stdout,
 * so scripts can capture it with `tail -n 1`.
 */
import { type ParseArgsConfig, parseArgs } from "node:util";
import { AccountError, AccountService } from "../accounts/account-service.js";
import { loadServiceConfig } from "../config.js";
import { UsageError } from "../errors.js";
import { openStore } from "../store/database.js";

export async function runUser(args: string[]): Promise<number> {
  const [action, ...rest] = args;
  if (action !== "create") throw new UsageError('user takes the action "create" or "reset-password"');
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

function parse(args: string[], options: NonNullable<ParseArgsConfig["options"]>) {
  try {
    return parseArgs({ args, options, allowPositionals: false });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

function required(value: unknown, flag: string): string {
  if (typeof value !== "string" || value.trim() === "") throw new UsageError(`${flag} is required`);
  return value;
}

async function withAccounts(work: (accounts: AccountService) => Promise<void>): Promise<number> {
  const store = await openStore(loadServiceConfig().databaseUrl);
  try {
    await work(new AccountService(store));
    return 0;
  } catch (error) {
    if (error instanceof AccountError) {
      process.stderr.write(`pagegrade: ${error.message}\n`);
      return 1;
    }
    throw error;
  } finally {
    await store.close();
  }
}
