/**
 * `pagegrade worker` runs with its memory settings (bin/pagegrade, the installed command; malloc as `npm start`):
 * the command replaces itself with Node.js, so the process started is the worker itself, with MALLOC_ARENA_MAX=2
 * (or the operator's own) and --max-semi-space-size=8 (read from its /proc environ and command line, and compared
 * with package.json's start script); SIGTERM reaches it directly and it stops as it should. Reached through a
 * symbolic link, as npm links it, it still finds its entry; other commands run with Node.js's defaults. Real
 * processes on the local PostgreSQL and Redis; `node` is this test's own Node.js (the Node.js 22 and 24 lanes).
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshDatabase, postgresUrl, type TestDatabase } from "../helpers/api.js";
import { eventually } from "../helpers/job-queues.js";
import { dropRedisKeys, redisUrl } from "../helpers/redis.js";

const command = new URL("../../bin/pagegrade", import.meta.url).pathname;
const entry = new URL("../../bin/pagegrade.js", import.meta.url).pathname;
const packageJson = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
  bin: { pagegrade: string };
  scripts: { start: string };
};
/** The environment without the settings under test, `node` on the PATH being this test's Node.js. */
const { MALLOC_ARENA_MAX: _unset, NODE_OPTIONS: _none, ...inherited } = process.env;
const withThisNode = { ...inherited, PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ""}` };

function environOf(pid: number): Record<string, string> {
  return Object.fromEntries(
    readFileSync(`/proc/${pid}/environ`, "utf8")
      .split("\0")
      .filter(Boolean)
      .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
  );
}

const argumentsOf = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);

describe("pagegrade worker's memory settings", () => {
  let database: TestDatabase;
  let links: string;
  const keyPrefix = `pagegrade-test:${randomBytes(6).toString("hex")}:`;
  const started: ChildProcess[] = [];

  beforeAll(async () => {
    database = await freshDatabase("postgres");
    links = mkdtempSync(join(tmpdir(), "pagegrade-bin-"));
  });
  afterAll(async () => {
    for (const child of started) if (child.exitCode === null) child.kill("SIGKILL");
    rmSync(links, { recursive: true, force: true });
    await dropRedisKeys(keyPrefix);
    await database.drop();
  });

  /** Starts the command as an operator would, with a worker's settings; resolves once it runs jobs. */
  async function startWorker(path: string, env: Record<string, string>) {
    const child = spawn(path, ["worker"], {
      env: {
        ...withThisNode,
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
    return { pid: child.pid as number, child, exited, stderr: () => stderr };
  }

  it("is the installed command, and is the worker itself with npm start's malloc setting and half its young generation", {
    timeout: 90_000,
  }, async () => {
    expect(new URL(`../../${packageJson.bin.pagegrade}`, import.meta.url).pathname).toBe(command);
    const { pid, child, exited, stderr } = await startWorker(command, {});
    const argv = argumentsOf(pid);
    expect(argv).toContain("--max-semi-space-size=8");
    expect(argv.slice(-2)).toEqual([entry, "worker"]);
    expect(readFileSync(`/proc/${pid}/exe`).equals(readFileSync(process.execPath))).toBe(true);
    expect(environOf(pid).MALLOC_ARENA_MAX).toBe("2");
    // npm start's malloc setting; its young generation is twice the worker's.
    expect(packageJson.scripts.start).toMatch(/MALLOC_ARENA_MAX=\$\{MALLOC_ARENA_MAX:-2\}/);
    expect(packageJson.scripts.start).toContain("--max-semi-space-size=16");

    child.kill("SIGTERM");
    expect(await exited).toEqual({ code: 0, signal: null });
    expect(stderr()).toContain("SIGTERM: finishing running jobs (at most 1 s)");
    expect(stderr()).toContain("stopped");
  });

  it("keeps an operator's own MALLOC_ARENA_MAX, and finds its entry through npm's symbolic link", {
    timeout: 90_000,
  }, async () => {
    const link = join(links, "pagegrade");
    symlinkSync(command, link);
    const { pid, child, exited } = await startWorker(link, { MALLOC_ARENA_MAX: "4" });
    expect(environOf(pid).MALLOC_ARENA_MAX).toBe("4");
    expect(argumentsOf(pid)).toEqual(expect.arrayContaining(["--max-semi-space-size=8", entry]));
    child.kill("SIGKILL");
    expect((await exited).signal).toBe("SIGKILL");
  });

  it("runs every other command with Node.js's defaults", () => {
    const help = spawnSync(command, ["help"], { env: withThisNode, encoding: "utf8" });
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^Usage:\n {2}pagegrade analyze/);
    const script = readFileSync(command, "utf8");
    expect(script).toMatch(/^exec node "\$here\/pagegrade\.js" "\$@"$/m);
  });
});
