/**
 * `pagegrade worker` runs with its memory settings (bin/memory-settings.js; malloc as `npm start`): started without
 * them, the command starts the worker again as its child with MALLOC_ARENA_MAX and --max-semi-space-size (read
 * from the child's /proc environ and command line, and compared with package.json's start script), forwards
 * SIGTERM to it and ends as it ends, and takes it along when killed outright; started with them, it runs in its
 * own process. Real processes on the local PostgreSQL and Redis.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshDatabase, postgresUrl, type TestDatabase } from "../helpers/api.js";
import { eventually } from "../helpers/job-queues.js";
import { dropRedisKeys, redisUrl } from "../helpers/redis.js";

const bin = new URL("../../bin/pagegrade.js", import.meta.url).pathname;
const packageJson = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
  scripts: { start: string };
};

function childrenOf(pid: number): number[] {
  try {
    return execFileSync("ps", ["-o", "pid=", "--ppid", String(pid)], { encoding: "utf8" })
      .split("\n")
      .map((line) => Number.parseInt(line, 10))
      .filter((child) => Number.isInteger(child));
  } catch {
    return []; // ps exits 1 when there are none
  }
}

/** Whether a process still runs (a zombie, which has ended and waits to be reaped, does not). */
function running(pid: number): boolean {
  const stat = `/proc/${pid}/stat`;
  if (!existsSync(stat)) return false;
  const state = readFileSync(stat, "utf8").split(") ")[1]?.[0];
  return state !== undefined && state !== "Z" && state !== "X";
}

function environOf(pid: number): Record<string, string> {
  return Object.fromEntries(
    readFileSync(`/proc/${pid}/environ`, "utf8")
      .split("\0")
      .filter(Boolean)
      .map((entry) => [entry.slice(0, entry.indexOf("=")), entry.slice(entry.indexOf("=") + 1)]),
  );
}

function argumentsOf(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
  } catch {
    return []; // it has ended since it was listed
  }
}

/** The command's children that run pagegrade itself (not the start-up check of Chromium, a child of its own). */
function pagegradeChildrenOf(pid: number): number[] {
  return childrenOf(pid).filter((child) => argumentsOf(child).includes(bin));
}

describe("pagegrade worker's memory settings", () => {
  let database: TestDatabase;
  const keyPrefix = `pagegrade-test:${randomBytes(6).toString("hex")}:`;
  const started: ChildProcess[] = [];
  const workers: number[] = [];

  beforeAll(async () => {
    database = await freshDatabase("postgres");
  });
  afterAll(async () => {
    for (const child of started) if (child.exitCode === null) child.kill("SIGKILL");
    for (const pid of workers) if (running(pid)) process.kill(pid, "SIGKILL");
    await dropRedisKeys(keyPrefix);
    await database.drop();
  });

  /** Starts the command as an operator would, with a worker's settings; resolves once it runs jobs. */
  async function startWorker(nodeArguments: string[], env: Record<string, string>) {
    const { MALLOC_ARENA_MAX: _unset, NODE_OPTIONS: _none, ...inherited } = process.env;
    const child = spawn(process.execPath, [...nodeArguments, bin, "worker"], {
      env: {
        ...inherited,
        PAGEGRADE_QUEUE_URL: redisUrl,
        PAGEGRADE_REDIS_KEY_PREFIX: keyPrefix,
        DATABASE_URL: `${postgresUrl}?options=-c%20search_path%3D${database.schema}`,
        PAGEGRADE_JOB_GRACE_SECONDS: "1",
        ...env,
      },
      stdio: ["ignore", "ignore", "pipe"],
    });
    started.push(child);
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
      child.on("exit", (code, signal) => resolve({ code, signal })),
    );
    await eventually(async () => stderr.includes("running up to"), "the worker to start", 60_000);
    return { child, exited, stderr: () => stderr };
  }

  it("starts its worker again with npm start's settings when started without them, and forwards SIGTERM", {
    timeout: 90_000,
  }, async () => {
    const { child, exited, stderr } = await startWorker([], {});
    const pid = child.pid as number;
    const [worker, ...others] = pagegradeChildrenOf(pid);
    expect(others).toEqual([]);
    workers.push(worker as number);

    const environ = environOf(worker as number);
    const argv = argumentsOf(worker as number);
    expect(environ.MALLOC_ARENA_MAX).toBe("2");
    expect(argv).toContain("--max-semi-space-size=8");
    // npm start's malloc setting; its young generation is twice the worker's.
    expect(packageJson.scripts.start).toMatch(/MALLOC_ARENA_MAX=\$\{MALLOC_ARENA_MAX:-2\}/);
    expect(packageJson.scripts.start).toContain("--max-semi-space-size=16");
    // The command itself has neither: it only waits.
    expect(environOf(pid).MALLOC_ARENA_MAX).toBeUndefined();

    child.kill("SIGTERM");
    expect(await exited).toEqual({ code: 0, signal: null });
    expect(stderr()).toContain("SIGTERM: finishing running jobs (at most 1 s)");
    expect(stderr()).toContain("stopped");
    expect(running(worker as number)).toBe(false);
  });

  it("keeps an operator's own MALLOC_ARENA_MAX", { timeout: 90_000 }, async () => {
    const { child, exited } = await startWorker([], { MALLOC_ARENA_MAX: "4" });
    const [worker] = pagegradeChildrenOf(child.pid as number);
    workers.push(worker as number);
    expect(environOf(worker as number).MALLOC_ARENA_MAX).toBe("4");
    expect(argumentsOf(worker as number)).toContain("--max-semi-space-size=8");
    child.kill("SIGTERM");
    expect((await exited).code).toBe(0);
  });

  it("takes its worker along when it is killed outright", { timeout: 90_000 }, async () => {
    const { child, exited } = await startWorker([], {});
    const [worker] = pagegradeChildrenOf(child.pid as number);
    workers.push(worker as number);
    child.kill("SIGKILL");
    expect((await exited).signal).toBe("SIGKILL");
    await eventually(async () => !running(worker as number), "the worker to end", 5_000);
  });

  it("runs in its own process when started with the settings", { timeout: 90_000 }, async () => {
    const { child, exited } = await startWorker(["--max-semi-space-size=16"], { MALLOC_ARENA_MAX: "2" });
    expect(pagegradeChildrenOf(child.pid as number)).toEqual([]);
    expect(environOf(child.pid as number).MALLOC_ARENA_MAX).toBe("2");
    child.kill("SIGTERM");
    expect((await exited).code).toBe(0);
  });
});
