/**
 * Entry of the `pagegrade` command: picks the sub-command and turns every failure into a one-line message on
 * stderr with a non-zero exit code (2 for usage and configuration errors), never a stack trace. Each command's
 * modules are imported when that command runs, so `pagegrade analyze` never loads the database, the services
 * or the crawler, and `pagegrade help` loads nothing of any command. Like main.ts it is an entry point, so it sits
 * with composition, above the commands; `pagegrade worker` is composition itself (src/worker.ts).
 */
import { ConfigError } from "../config.js";
import { applyHeapGrowth } from "../runtime/heap-growth.js";
import { UsageError } from "./usage.js";

const usage = `Usage:
  pagegrade analyze <url> [--mode raw|rendered] [--json] [--baseline <report.json>] [--budget <budget.json>] [--junit <out.xml>]
  pagegrade analyze --file <urls.txt> [--mode raw|rendered] [--concurrency N] [--json-lines <out.jsonl|->]
  pagegrade crawl <url> [--max-pages N] [--max-depth N] [--include P]... [--exclude P]... [--no-sitemaps]
                  [--concurrency N] [--json-lines <out.jsonl|->] [--csv <dir>]
                  [--header "Name: value"]...
                  [--json <crawl.json>] [--baseline <crawl.json>] [--budget <budget.json>] [--junit <out.xml>]
                  [--fail-on high|medium|low]
  pagegrade crawl --file <urls.txt> [--extract <rules.json text>] [options of crawl <url>]
  pagegrade user create --email <e> [--password <p>]
  pagegrade user reset-password --email <e> [--password-stdin]   (prints a new random password unless read from stdin)
  pagegrade key create --email <e> [--keep-old]
  pagegrade backup <file> [--force]      (a consistent copy of the SQLite database, while the service runs)
  pagegrade migrate --to <postgres://…> [--from <sqlite file>]   (copies it into an empty PostgreSQL database)
  pagegrade worker          (runs jobs only; needs PAGEGRADE_QUEUE_URL and a PostgreSQL DATABASE_URL)
  pagegrade help

Environment: see the README (PAGEGRADE_* settings).`;

async function main(argv: string[]): Promise<number> {
  applyHeapGrowth();
  const [command, ...rest] = argv;
  switch (command) {
    case "analyze":
    case "analyse":
      return (await import("./analyze-command.js")).runAnalyze(rest);
    case "crawl":
      return (await import("./crawl-command.js")).runCrawl(rest);
    case "user":
      if (rest[0] === "reset-password")
        return (await import("./reset-password-command.js")).runResetPassword(rest.slice(1));
      return (await import("./account-commands.js")).runUser(rest);
    case "key":
      return (await import("./account-commands.js")).runKey(rest);
    case "backup":
      return (await import("./backup-command.js")).runBackup(rest);
    case "migrate":
      return (await import("./migrate-command.js")).runMigrate(rest);
    case "worker":
      return (await import("../worker.js")).runWorker(rest);
    case undefined:
    case "help":
    case "--help":
    case "-h":
      process.stdout.write(`${usage}\n`);
      return command === undefined ? 2 : 0;
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof UsageError) {
      process.stderr.write(`pagegrade: ${error.message}\n\n${usage}\n`);
    } else if (error instanceof ConfigError) {
      process.stderr.write(`pagegrade: configuration: ${error.message}\n`);
    } else {
      process.stderr.write(`pagegrade: unexpected error: ${(error as Error)?.message ?? String(error)}\n`);
    }
    process.exitCode = 2;
  },
);
