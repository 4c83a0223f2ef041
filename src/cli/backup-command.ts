/**
 * `pagegrade backup <file> [--force]`: a consistent copy of the embedded SQLite database named by DATABASE_URL,
 * taken while the service keeps serving and writing (store/sqlite-backup.ts). A PostgreSQL DATABASE_URL is
 * refused with the `pg_dump` command that does the same there.
 */
import { parseArgs } from "node:util";
import { ConfigError, loadServiceConfig } from "../config.js";
import { UsageError } from "../errors.js";
import { redactedUrl } from "../store/redacted-url.js";
import { BackupRefused, backupSqlite } from "../store/sqlite-backup.js";

export async function runBackup(args: string[]): Promise<number> {
  let parsed: ReturnType<typeof parseBackupArgs>;
  try {
    parsed = parseBackupArgs(args);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const [file, ...extra] = parsed.positionals;
  if (!file) throw new UsageError("backup needs the file to write: pagegrade backup <file>");
  if (extra.length > 0) throw new UsageError(`backup takes one file, got also "${extra.join(" ")}"`);
  const databaseUrl = loadServiceConfig().databaseUrl;
  if (!databaseUrl.startsWith("sqlite:")) {
    throw new ConfigError(
      `DATABASE_URL is a PostgreSQL database (${redactedUrl(databaseUrl)}); back it up with PostgreSQL's own tool: ` +
        `pg_dump --format=custom --file=${file} "$DATABASE_URL" (restore with pg_restore --dbname=<url> ${file})`,
    );
  }
  const source = databaseUrl.slice("sqlite:".length);
  if (source === ":memory:")
    throw new ConfigError("DATABASE_URL is sqlite::memory:, which has nothing to back up");
  try {
    const done = backupSqlite(source, file, { force: parsed.values.force === true });
    const megabytes = (done.bytes / 1024 / 1024).toFixed(1);
    const seconds = (done.milliseconds / 1000).toFixed(1);
    process.stdout.write(
      `Backed up ${done.source} to ${done.target} (${megabytes} MB in ${seconds} s; integrity check ok)\n`,
    );
    return 0;
  } catch (error) {
    if (!(error instanceof BackupRefused)) throw error;
    process.stderr.write(`pagegrade: backup: ${error.message}\n`);
    return 1;
  }
}

function parseBackupArgs(args: string[]) {
  return parseArgs({ args, options: { force: { type: "boolean" } }, allowPositionals: true });
}
