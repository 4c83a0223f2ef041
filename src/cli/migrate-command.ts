/**
 * `pagegrade migrate --to postgres://… [--from <sqlite file>]`: copies the embedded SQLite database (DATABASE_URL's
 * file unless `--from` names one, such as a backup) into an empty PostgreSQL database or schema, printing its
 * progress (store/sqlite-to-postgres.ts). A refusal (a non-empty target, an unreachable one, a source at another
 * version) is one line on stderr and exit code 1; the target is left as it was.
 */
import { parseArgs } from "node:util";
import { ConfigError, loadServiceConfig } from "../config.js";
import { UsageError } from "../errors.js";
import { redactedUrl } from "../store/redacted-url.js";
import { copySqliteToPostgres, MigrationRefused } from "../store/sqlite-to-postgres.js";

export async function runMigrate(args: string[]): Promise<number> {
  let values: { to?: string; from?: string };
  try {
    ({ values } = parseArgs({
      args,
      options: { to: { type: "string" }, from: { type: "string" } },
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const to = values.to?.trim();
  if (!to) throw new UsageError("migrate needs --to postgres://user@host:5432/database");
  if (!/^postgres(ql)?:\/\//.test(to))
    throw new UsageError(`--to must be a PostgreSQL URL (postgres://…), got "${redactedUrl(to)}"`);
  const from = values.from?.trim() || embeddedDatabase();
  const started = performance.now();
  const say = (line: string) => process.stdout.write(`${line}\n`);
  try {
    say(`Copying ${from} into ${redactedUrl(to)}`);
    const tables = await copySqliteToPostgres({ sqlitePath: from, postgresUrl: to, progress: say });
    const rows = tables.reduce((sum, table) => sum + table.rows, 0);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    say(
      `Done: ${tables.length} tables, ${rows.toLocaleString("en")} rows, every count verified, in ${seconds} s. ` +
        "Start the service with this DATABASE_URL (and the same PAGEGRADE_ENCRYPTION_KEY).",
    );
    return 0;
  } catch (error) {
    if (!(error instanceof MigrationRefused)) throw error;
    process.stderr.write(`pagegrade: migrate: ${error.message}\n`);
    return 1;
  }
}

function embeddedDatabase(): string {
  const databaseUrl = loadServiceConfig().databaseUrl;
  if (!databaseUrl.startsWith("sqlite:") || databaseUrl === "sqlite::memory:")
    throw new ConfigError(
      "DATABASE_URL does not name a SQLite file to copy: set it to sqlite:<path>, or pass --from <path>",
    );
  return databaseUrl.slice("sqlite:".length);
}
