/**
 * The `pagegrade` command line as a function: picks the sub-command for an argument list and turns every
 * failure into a one-line message on stderr, resolving with the exit code (2 for usage and configuration
 * errors), never a stack trace. Each command's modules are imported when that command runs, so `pagegrade
 * analyze` never loads the database, the services or the crawler, and `pagegrade help` loads nothing of any
 * command. The process entry (main.ts) calls it with the process's arguments; tests call it in-process. Like
 * main.ts it sits with composition, above the commands; `pagegrade worker` is composition itself (src/worker.ts).
 */
import { ConfigError } from "../config.js";
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
  pagegrade key create --email <e> [--keep-old]
  pagegrade worker          (runs jobs only; needs PAGEGRADE_QUEUE_URL and a PostgreSQL DATABASE_URL)
  pagegrade help

Environment: see the README (PAGEGRADE_* settings).`;

async function dispatch(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case "analyze":
    case "analyse":
      return (await import("./analyze-command.js")).runAnalyze(rest);
    case "crawl":
      return (await import("./crawl-command.js")).runCrawl(rest);
    case "user":
      return (await import("./account-commands.js")).runUser(rest);
    case "key":
      return (await import("./account-commands.js")).runKey(rest);
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

/**
 * Runs the command `argv` names (the arguments after `pagegrade`); resolves with its exit code. `prepare` runs
 * first, its failure reported like the command's: the process entry applies the process's settings there.
 */
export async function runCommandLine(argv: string[], prepare: () => void = () => {}): Promise<number> {
  try {
    prepare();
    return await dispatch(argv);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`pagegrade: ${error.message}\n\n${usage}\n`);
    } else if (error instanceof ConfigError) {
      process.stderr.write(`pagegrade: configuration: ${error.message}\n`);
    } else {
      process.stderr.write(`pagegrade: unexpected error: ${(error as Error)?.message ?? String(error)}\n`);
    }
    return 2;
  }
}
