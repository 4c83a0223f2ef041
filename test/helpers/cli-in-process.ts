/**
 * Runs the `pagegrade` command line in this test's process (src/cli/command-line.ts, what bin/pagegrade.js runs
 * after starting its TypeScript loader), with what it writes to stdout and stderr captured and the given
 * environment variables set for the run: the commands' logic without a process start per case. The tests of
 * each command keep one or two real runs of bin/pagegrade.js (test/helpers/cli-process.ts) for what only a
 * process shows (its exit code, its start-up, its output streams).
 */
import { runCommandLine } from "../../src/cli/command-line.js";

export interface CommandRun {
  code: number;
  stdout: string;
  stderr: string;
  /** The last line written to stderr. */
  last: string | undefined;
}

/** The variables every run of the tests sets: plain text, and the tests' sites on 127.0.0.1 allowed. */
export const commandTestEnv = { NO_COLOR: "1", PAGEGRADE_ALLOW_PRIVATE_NETWORKS: "1" };

let running = false;

/** Runs `pagegrade <args>` in-process; one run at a time (the process's streams and environment are shared). */
export async function pagegradeInProcess(
  args: string[],
  env: Record<string, string> = {},
): Promise<CommandRun> {
  if (running) throw new Error("pagegradeInProcess: one run at a time");
  running = true;
  const output = { stdout: "", stderr: "" };
  const streams = [
    ["stdout", process.stdout],
    ["stderr", process.stderr],
  ] as const;
  const writes = streams.map(([, stream]) => stream.write);
  for (const [name, stream] of streams) {
    stream.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      output[name] += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString();
      const callback = rest.find((argument) => typeof argument === "function") as (() => void) | undefined;
      if (callback) queueMicrotask(callback);
      return true;
    }) as typeof stream.write;
  }
  const variables = { ...commandTestEnv, ...env };
  const saved = Object.fromEntries(Object.keys(variables).map((name) => [name, process.env[name]]));
  Object.assign(process.env, variables);
  try {
    const code = await runCommandLine(args);
    return { code, ...output, last: output.stderr.trim().split("\n").pop() };
  } finally {
    streams.forEach(([, stream], index) => {
      stream.write = writes[index] as typeof stream.write;
    });
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    running = false;
  }
}
