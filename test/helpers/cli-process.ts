/**
 * Runs the real `pagegrade` command (bin/pagegrade.js) in a child process, as a user does: its exit code and its
 * output. Each run starts Node.js and the TypeScript loader (about half a second), so the command tests keep a
 * few such runs and test the rest in-process (test/helpers/cli-in-process.ts).
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { type CommandRun, commandTestEnv } from "./cli-in-process.js";

const run = promisify(execFile);
const bin = new URL("../../bin/pagegrade.js", import.meta.url).pathname;

/** Runs `pagegrade <args>` in a child process with the tests' variables and `env` added. */
export async function pagegradeProcess(
  args: string[],
  env: Record<string, string> = {},
): Promise<CommandRun> {
  let result: { code: number; stdout: string; stderr: string };
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, ...args], {
      env: { ...process.env, ...commandTestEnv, ...env },
    });
    result = { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    result = { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
  return { ...result, last: result.stderr.trim().split("\n").pop() };
}
