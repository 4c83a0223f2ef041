/**
 * Operator commands against DATABASE_URL: `pagegrade team create --name <n> --owner <e>` and
 * `pagegrade team list [--email <e>]` (teams, or one user's teams with their role), and
 * `pagegrade user list|disable|enable` (a disabled user's keys and sessions stop working at once; their data is
 * kept). Output is one line per row, tab-separated, for people and scripts alike.
 */
import { AccountError, AccountService } from "../accounts/account-service.js";
import { UsageError } from "../errors.js";
import { teamName } from "../teams/team-service.js";
import { TeamStore } from "../teams/team-store.js";
import { timestamp } from "../timestamps.js";
import { parse, required, withStore } from "./account-commands.js";

const pageSize = 500;

export async function runTeam(args: string[]): Promise<number> {
  const [action, ...rest] = args;
  if (action === "create") {
    const { values } = parse(rest, { name: { type: "string" }, owner: { type: "string" } });
    const name = required(values.name, "--name");
    const email = required(values.owner, "--owner");
    return withStore(async (store) => {
      const owner = await new AccountService(store).findByEmail(email);
      if (!owner) throw new AccountError(`no user has the e-mail ${email.trim().toLowerCase()}`);
      const team = await new TeamStore(store).create(teamName(name), owner.id, timestamp());
      process.stdout.write(`Created team ${team.name} (id ${team.id}) owned by ${owner.email}.\n`);
    });
  }
  if (action === "list") {
    const { values } = parse(rest, { email: { type: "string" } });
    return withStore(async (store) => {
      const teams = new TeamStore(store);
      if (typeof values.email === "string") {
        const user = await new AccountService(store).findByEmail(values.email);
        if (!user) throw new AccountError(`no user has the e-mail ${values.email.trim().toLowerCase()}`);
        return printPages(
          async (page) => (await teams.list(user.id, page)).rows,
          (team) => `${team.id}\t${team.name}\t${team.role}\t${team.members} members`,
        );
      }
      await printPages(
        (page) => teams.all(page),
        (team) =>
          `${team.id}\t${team.name}\t${team.members} members\towners ${team.owners.join(",")}\t${team.created_at}`,
      );
    });
  }
  throw new UsageError('team takes the action "create" or "list"');
}

/** `pagegrade user list|disable|enable`. */
export async function runUserAdmin(action: "list" | "disable" | "enable", rest: string[]): Promise<number> {
  if (action === "list") {
    parse(rest, {});
    return withStore(async (store) => {
      const accounts = new AccountService(store);
      await printPages(
        (page) => accounts.listUsers(page),
        (user) =>
          `${user.id}\t${user.email}\t${user.disabled_at ? `disabled since ${user.disabled_at}` : "enabled"}\tcreated ${user.created_at}`,
      );
    });
  }
  const { values } = parse(rest, { email: { type: "string" } });
  const email = required(values.email, "--email");
  return withStore(async (store) => {
    const account = await new AccountService(store).setDisabled(email, action === "disable");
    process.stdout.write(
      action === "disable"
        ? `Disabled ${account.email} at ${account.disabled_at ?? timestamp()}: their keys and sessions no longer work.\n`
        : `Enabled ${account.email}.\n`,
    );
  });
}

/** Prints every row, a page at a time, one line each. */
async function printPages<Row>(
  read: (page: { limit: number; offset: number }) => Promise<Row[]>,
  line: (row: Row) => string,
): Promise<void> {
  for (let offset = 0; ; offset += pageSize) {
    const rows = await read({ limit: pageSize, offset });
    for (const row of rows) process.stdout.write(`${line(row)}\n`);
    if (rows.length < pageSize) return;
  }
}
