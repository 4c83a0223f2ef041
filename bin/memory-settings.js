// The memory settings of `pagegrade worker`: glibc's malloc arenas capped at MALLOC_ARENA_MAX=2 (unless set), as
// `npm start`'s script in package.json does, and V8's young generation at --max-semi-space-size=8, half the
// service's 16: a worker's young objects are one page's at a time (README, "The 100,000-page run on this code").
// Both must be in place when Node.js starts (glibc reads the variable at its first allocation, V8 sizes its heap
// at start-up), so `pagegrade worker` started without them starts itself again with them, as its only child:
// the command forwards SIGTERM, SIGINT, SIGHUP and SIGQUIT to it and ends as it ends (the same exit code or
// signal). The child is in a process group of its own, so Ctrl-C reaches it once, through the command, and it
// kills itself at once if the command dies without a word (SIGKILL): the two live and die together. Started with
// both settings already (MALLOC_ARENA_MAX set, the flag in the node arguments or NODE_OPTIONS), the command
// runs in its own process, as a process manager that signals the process directly may prefer.
import { spawn } from "node:child_process";

export const mallocArenaMax = "2";
export const semiSpaceFlag = "--max-semi-space-size=8";
/** Set for the child only, and removed by it at once: the child's own children do not inherit it. */
const relaunchedVariable = "PAGEGRADE_RELAUNCHED_WITH_MEMORY_SETTINGS";
const forwardedSignals = ["SIGTERM", "SIGINT", "SIGHUP", "SIGQUIT"];

/** Whether this process started with both settings. */
export function hasMemorySettings() {
  const nodeOptions = (process.env.NODE_OPTIONS ?? "").split(/\s+/);
  const semiSpace = [...process.execArgv, ...nodeOptions].some((argument) =>
    /^--max[-_]semi[-_]space[-_]size\b/.test(argument),
  );
  return process.env.MALLOC_ARENA_MAX !== undefined && semiSpace;
}

/** Starts `script args` again with both settings and ends this process as the child ends. */
export function relaunchWithMemorySettings(script, args) {
  const flags = process.execArgv.some((argument) => /^--max[-_]semi[-_]space[-_]size\b/.test(argument))
    ? process.execArgv
    : [...process.execArgv, semiSpaceFlag];
  const child = spawn(process.execPath, [...flags, script, ...args], {
    stdio: ["inherit", "inherit", "inherit", "ipc"],
    env: {
      ...process.env,
      MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? mallocArenaMax,
      [relaunchedVariable]: "1",
    },
    detached: true,
  });
  const forward = (signal) => child.kill(signal);
  for (const signal of forwardedSignals) process.on(signal, forward);
  child.on("error", (error) => {
    process.stderr.write(`pagegrade: could not start the worker process: ${error.message}\n`);
    process.exit(1);
  });
  child.on("exit", (code, signal) => {
    for (const name of forwardedSignals) process.off(name, forward);
    if (signal) process.kill(process.pid, signal);
    else process.exit(code ?? 1);
  });
}

/** In a relaunched child: end at once if the command that started it dies. */
export function followParent() {
  if (process.env[relaunchedVariable] !== "1") return;
  delete process.env[relaunchedVariable];
  if (!process.channel) return;
  process.channel.unref();
  process.on("disconnect", () => process.kill(process.pid, "SIGKILL"));
}
