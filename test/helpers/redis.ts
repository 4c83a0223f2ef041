/**
 * Redis for the tests: the machine's local server (PAGEGRADE_TEST_REDIS_URL overrides it; every test picks its
 * own key prefix), or a server of a test's own on a free port, for tests that stop it.
 */
import { spawn } from "node:child_process";
import { freePort } from "./service-process.js";

export const redisUrl = process.env.PAGEGRADE_TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

export interface OwnRedis {
  url: string;
  /** Kills the server at once and resolves when it has gone. */
  kill(): Promise<void>;
}

/**
 * Starts `redis-server` (nothing kept on disk) and resolves once it accepts connections; on `port` to stand in
 * for one that was killed (a restart).
 */
export async function startOwnRedis(port?: number): Promise<OwnRedis> {
  port ??= await freePort();
  const server = spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    { stdio: ["ignore", "pipe", "ignore"] },
  );
  const exited = new Promise<void>((resolve) => server.once("exit", () => resolve()));
  await new Promise<void>((resolve, reject) => {
    let output = "";
    server.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("Ready to accept connections")) resolve();
    });
    server.once("exit", (code) => reject(new Error(`redis-server exited (${code}): ${output.slice(-300)}`)));
  });
  server.stdout.resume();
  return {
    url: `redis://127.0.0.1:${port}`,
    kill: async () => {
      if (server.exitCode === null && server.signalCode === null) server.kill("SIGKILL");
      await exited;
    },
  };
}

/** Removes every key under a test's prefix from the shared Redis. */
export async function dropRedisKeys(prefix: string): Promise<void> {
  const { Redis } = await import("ioredis");
  const redis = new Redis(redisUrl);
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
}
