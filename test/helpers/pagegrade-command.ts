/**
 * The `pagegrade` command as its own process (bin/pagegrade.js, as a user runs it), with settings over the test's
 * environment: run to its end (its exit code and output), or started to be watched and killed.
 */
import { type ChildProcess, spawn } from "node:child_process";

const bin = new URL("../../bin/pagegrade.js", import.meta.url).pathname;

export interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `pagegrade <args>` to its end. */
export async function pagegrade(args: string[], env: Record<string, string> = {}): Promise<CommandResult> {
  const started = startPagegrade(args, env);
  const code = await started.exited;
  return { code, stdout: started.stdout(), stderr: started.stderr() };
}

export interface StartedCommand {
  child: ChildProcess;
  exited: Promise<number | null>;
  stdout(): string;
  stderr(): string;
}

/** Starts `pagegrade <args>`; its output is collected as it comes. */
export function startPagegrade(args: string[], env: Record<string, string> = {}): StartedCommand {
  const child = spawn(process.execPath, [bin, ...args], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    out += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    err += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  return { child, exited, stdout: () => out, stderr: () => err };
}
