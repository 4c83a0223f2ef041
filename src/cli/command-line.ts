/**
 * The `pagegrade` command line as a function: picks the sub-command for an argument list and turns every
 * failure into a one-line message on stderr, resolving with the exit code (2 for usage and configuration
 * errors), never a stack trace. Each command's modules are imported when that command runs, so `pagegrade
 * analyze` never loads the database, the services or the crawler, and `pagegrade help` loads nothing of any
 * command. The process entry (main.ts) calls it with the process's arguments; tests call it in-process. Like
 * main.ts it sits with composition, above the commands; `pagegrade worker` is composition itself (src/worker.ts).
 */
import { ConfigError } from "../config.js";
import { UsageError } from "../errors.js";
import { usage } from "./usage-text.mjs";

async function dispatch(argv: string[]): Promise<number> {
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
      if (rest[0] === "list" || rest[0] === "disable" || rest[0] === "enable")
        return (await import("./team-commands.js")).runUserAdmin(rest[0], rest.slice(1));
      return (await import("./account-commands.js")).runUser(rest);
    case "team":
      return (await import("./team-commands.js")).runTeam(rest);
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
      // bin/pagegrade.js prints it itself, without the TypeScript loader; in-process callers get it here.
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
