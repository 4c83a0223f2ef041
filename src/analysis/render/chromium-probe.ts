/**
 * Runs the start-up check of Chromium in a child process (chromium-probe-process.ts), so that the process asking
 * never loads Playwright unless it renders. Resolves with the child's outcome; a child that prints none (it
 * crashed, or ran past the time allowed and was killed) is a failed launch with its last words as the message.
 * The child ends when the process that started it does.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { ChromiumLaunchOptions } from "./chromium-launch.js";
import type { ProbeOutcome } from "./chromium-probe-process.js";

const entry = new URL("./chromium-probe-entry.mjs", import.meta.url);
/** How much of the child's output is kept: its outcome's line (whose message the child bounds), or its errors. */
const tailChars = 65_536;

export function probeInChildProcess(options: ChromiumLaunchOptions): Promise<ProbeOutcome> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [fileURLToPath(entry), JSON.stringify(options)], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout = (stdout + chunk).slice(-tailChars);
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr = (stderr + chunk).slice(-tailChars);
    });
    // Playwright's own launch timeout is `timeoutMs`; loading it and closing the browser get as long again.
    const timer = setTimeout(() => child.kill("SIGKILL"), 2 * (options.timeoutMs ?? 30_000));
    // A service stopped while it checks takes the check along (Chromium, on its pipe, ends with it).
    const stopCheck = () => child.kill("SIGTERM");
    process.once("exit", stopCheck);
    const settle = (why: string) => {
      clearTimeout(timer);
      process.off("exit", stopCheck);
      try {
        const outcome = JSON.parse(stdout.trim().split("\n").pop() ?? "") as ProbeOutcome;
        if (typeof outcome?.ok === "boolean") return resolve(outcome);
      } catch {
        // Fall through: the child printed no outcome.
      }
      resolve({ ok: false, message: stderr.trim() || why });
    };
    child.on("error", (error) => settle(`the check could not start: ${error.message}`));
    child.on("close", (code, signal) => settle(`the check ended with ${signal ?? `status ${code}`}`));
  });
}
