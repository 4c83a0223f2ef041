/**
 * `pagegrade worker` as a real process: it refuses set-ups it cannot serve with a message naming the setting
 * (exit 2), and on PostgreSQL and Redis it runs the registered jobs (the maintenance job sweeps an expired
 * session) and stops with exit 0 on SIGTERM.
 */
import { execFile, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshDatabase, postgresUrl, type TestDatabase } from "./helpers/api.js";
import { eventually } from "./helpers/job-queues.js";
import { redisUrl } from "./helpers/redis.js";

const run = promisify(execFile);
const bin = new URL("../bin/pagegrade.js", import.meta.url).pathname;

async function worker(env: Record<string, string>) {
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, "worker"], {
      env: { ...process.env, PAGEGRADE_QUEUE_URL: "", DATABASE_URL: "", ...env },
      timeout: 20_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe("pagegrade worker", () => {
  it("refuses the embedded queue, naming PAGEGRADE_QUEUE_URL", async () => {
    const { code, stderr } = await worker({ DATABASE_URL: postgresUrl });
    expect(code).toBe(2);
    expect(stderr).toContain("pagegrade worker needs PAGEGRADE_QUEUE_URL=redis://…");
  });

  it("refuses SQLite, naming DATABASE_URL", async () => {
    const { code, stderr } = await worker({ PAGEGRADE_QUEUE_URL: redisUrl, DATABASE_URL: "sqlite:./x.db" });
    expect(code).toBe(2);
    expect(stderr).toContain("pagegrade worker needs a PostgreSQL DATABASE_URL");
  });

  it("refuses to run no jobs, and rejects malformed settings precisely", async () => {
    const none = await worker({
      PAGEGRADE_QUEUE_URL: redisUrl,
      DATABASE_URL: postgresUrl,
      PAGEGRADE_WORKERS: "0",
    });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("PAGEGRADE_WORKERS must be at least 1 for pagegrade worker");
    const url = await worker({ PAGEGRADE_QUEUE_URL: "http://127.0.0.1:6379", DATABASE_URL: postgresUrl });
    expect(url.code).toBe(2);
    expect(url.stderr).toContain("PAGEGRADE_QUEUE_URL must start with redis:// or rediss://");
    const workers = await worker({ PAGEGRADE_QUEUE_URL: redisUrl, PAGEGRADE_WORKERS: "two" });
    expect(workers.code).toBe(2);
    expect(workers.stderr).toContain('PAGEGRADE_WORKERS must be a whole number of at least 0, got "two"');
  });

  describe("on PostgreSQL and Redis", () => {
    let database: TestDatabase;
    const keyPrefix = `pagegrade-test:${randomBytes(6).toString("hex")}:`;
    beforeAll(async () => {
      database = await freshDatabase("postgres");
    });
    afterAll(async () => {
      const { Redis } = await import("ioredis");
      const redis = new Redis(redisUrl);
      const keys = await redis.keys(`${keyPrefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      await redis.quit();
      await database.drop();
    });

    it("runs the maintenance job, then stops on SIGTERM with exit 0", async () => {
      const { db } = database.store;
      const user = await db
        .insertInto("users")
        .values({ email: "sweep@example.com", password_hash: null, created_at: "x", updated_at: "x" })
        .returning("id")
        .executeTakeFirstOrThrow();
      await db
        .insertInto("sessions")
        .values([
          { digest: "expired", user_id: user.id, flash: null, created_at: "x", expires_at: 1 },
          { digest: "current", user_id: user.id, flash: null, created_at: "x", expires_at: 2 ** 31 - 1 },
        ])
        .execute();
      const child = spawn(process.execPath, [bin, "worker"], {
        env: {
          ...process.env,
          PAGEGRADE_QUEUE_URL: redisUrl,
          PAGEGRADE_REDIS_KEY_PREFIX: keyPrefix,
          DATABASE_URL: `${postgresUrl}?options=-c%20search_path%3D${database.schema}`,
          PAGEGRADE_JOB_GRACE_SECONDS: "1",
          // A Chromium that is not there: the start-up check says so at once.
          PAGEGRADE_CHROMIUM_PATH: "/nonexistent/chromium",
        },
        stdio: ["ignore", "ignore", "pipe"],
      });
      let stderr = "";
      child.stderr.on("data", (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
      const sessions = async () =>
        (await db.selectFrom("sessions").select("digest").execute()).map((row) => row.digest);
      await eventually(
        async () => (await sessions()).length === 1,
        "the expired session to be swept",
        20_000,
      );
      expect(await sessions()).toEqual(["current"]);
      // The job may run before the start-up line has crossed the pipe.
      await eventually(
        async () => stderr.includes("running up to 4 jobs at once"),
        "the start-up line",
        10_000,
      );
      // The check of Chromium ends before the worker takes jobs (its process never beside the first pages').
      const checked = stderr.indexOf("rendered analyses are unavailable");
      expect(checked).toBeGreaterThanOrEqual(0);
      expect(checked).toBeLessThan(stderr.indexOf("running up to 4 jobs at once"));
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
      expect(stderr).toContain("SIGTERM: finishing running jobs (at most 1 s)");
      expect(stderr).toContain("stopped");
    });
  });
});
