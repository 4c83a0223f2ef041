/**
 * `npm start` as an operator runs it: npm runs the start script in a shell, and stopping npm's process must stop
 * the service (a process manager or `kill <pid>` only knows npm's pid). The script execs the service, so npm's
 * own child is the service, which npm hands SIGTERM to and which then shuts down gracefully.
 */
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "./helpers/service-process.js";

const root = new URL("..", import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), "pagegrade-npm-start-"));

/** The pids of a process's children, grandchildren and so on. */
function descendants(pid: number): number[] {
  let children: number[];
  try {
    children = execFileSync("ps", ["-o", "pid=", "--ppid", String(pid)], { encoding: "utf8" })
      .split("\n")
      .map((line) => Number.parseInt(line, 10))
      .filter((child) => Number.isInteger(child));
  } catch {
    children = []; // ps exits 1 when there are none
  }
  return children.flatMap((child) => [child, ...descendants(child)]);
}

/** Whether a process still runs (a zombie, which has ended and waits to be reaped, does not). */
function running(pid: number): boolean {
  const stat = `/proc/${pid}/stat`;
  if (!existsSync(stat)) return false;
  const state = readFileSync(stat, "utf8").split(") ")[1]?.[0];
  return state !== undefined && state !== "Z" && state !== "X";
}

function portAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.on("error", () => resolve(false));
  });
}

describe("npm start", () => {
  let leftOver: number[] = [];
  afterAll(() => {
    for (const pid of leftOver) if (running(pid)) process.kill(pid, "SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  });

  it("stops the service, and leaves no process behind, when npm's own pid gets SIGTERM", {
    timeout: 240_000,
  }, async () => {
    const port = await freePort();
    const npm = spawn("npm", ["start"], {
      cwd: root,
      env: { ...process.env, PORT: String(port), DATABASE_URL: `sqlite:${join(dir, "pagegrade.db")}` },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let errors = "";
    npm.stderr.on("data", (chunk: Buffer) => {
      errors += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => npm.on("exit", (code) => resolve(code)));
    for (let attempt = 0; !(await portAnswers(port)); attempt++) {
      if (npm.exitCode !== null || attempt > 1800) throw new Error(`npm start did not start: ${errors}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const processes = descendants(npm.pid as number);
    leftOver = processes;
    expect(processes.length).toBeGreaterThan(0);

    npm.kill("SIGTERM");
    await exited;
    // The service's graceful stop may take a moment after npm has gone; it must then be gone too.
    for (let attempt = 0; processes.some(running) && attempt < 100; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(processes.filter(running)).toEqual([]);
    expect(await portAnswers(port)).toBe(false);
    expect(errors).toBe("");
  });
});
