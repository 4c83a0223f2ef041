import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { AccountService } from "../src/accounts/account-service.js";
import { openStore } from "../src/store/database.js";
import { type LocalServer, slowHtml, startServer } from "./helpers/local-server.js";
import { startServiceProcess } from "./helpers/service-process.js";

const root = new URL("..", import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), "pagegrade-service-"));

describe("the service process", () => {
  let slow: LocalServer;
  afterAll(async () => {
    await slow?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("creates its SQLite database on first start, serves, and finishes in-flight requests on SIGTERM", {
    timeout: 60_000,
  }, async () => {
    slow = await startServer({
      "/": slowHtml("<!doctype html><title>Slow but fine</title>", 800),
    });
    const databaseFile = join(dir, "nested", "pagegrade.db");
    const service = await startServiceProcess({
      DATABASE_URL: `sqlite:${databaseFile}`,
      PAGEGRADE_ALLOW_PRIVATE_NETWORKS: "1",
    });
    expect(existsSync(databaseFile)).toBe(true);

    const health = await fetch(`${service.url}/healthz`);
    expect(await health.json()).toMatchObject({ status: "ok" });

    const store = await openStore(`sqlite:${databaseFile}`);
    const { key } = await new AccountService(store).createUser("service@example.com", null);
    await store.close();

    const inFlight = fetch(`${service.url}/api/v1/reports`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/x-www-form-urlencoded" },
      body: `url=${encodeURIComponent(`${slow.url}/`)}`,
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    service.child.kill("SIGTERM");
    const response = await inFlight;
    expect(response.status).toBe(201);
    expect(await service.exited).toBe(0);

    const reopened = await openStore(`sqlite:${databaseFile}`);
    const rows = await reopened.db.selectFrom("reports").select(["url", "project"]).execute();
    await reopened.close();
    expect(rows).toEqual([{ url: `${slow.url}/`, project: "127.0.0.1" }]);
  });

  async function failedStart(env: Record<string, string>): Promise<{ code: unknown; stderr: string }> {
    const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: `sqlite:${join(dir, "refused.db")}`, PORT: "0", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const code = await new Promise((resolve) => child.on("exit", resolve));
    return { code, stderr };
  }

  it("refuses to start with a clear message on a bad setting", async () => {
    expect(await failedStart({ DATABASE_URL: "mysql://nowhere" })).toEqual({
      code: 1,
      stderr:
        'pagegrade: cannot start: configuration: DATABASE_URL must start with sqlite: or postgres://, got "mysql://nowhere"\n',
    });
    expect(await failedStart({ REDIS_URL: "localhost:6379" })).toEqual({
      code: 1,
      stderr: "pagegrade: cannot start: configuration: REDIS_URL must start with redis:// or rediss://\n",
    });
  });

  it("refuses to start when REDIS_URL names a Redis that does not answer", async () => {
    const { code, stderr } = await failedStart({ REDIS_URL: "redis://127.0.0.1:1" });
    expect(code).toBe(1);
    expect(stderr).toMatch(
      /^pagegrade: cannot start: cannot reach Redis at REDIS_URL: connect ECONNREFUSED .*\n$/,
    );
  });

  // Two starts of the service through tsx, seconds each on a busy machine (the fast suite runs files side by side).
  it("refuses to start when PAGEGRADE_QUEUE_URL is malformed or names a Redis that does not answer", {
    timeout: 60_000,
  }, async () => {
    expect(await failedStart({ PAGEGRADE_QUEUE_URL: "localhost:6379" })).toEqual({
      code: 1,
      stderr:
        "pagegrade: cannot start: configuration: PAGEGRADE_QUEUE_URL must start with redis:// or rediss:// (leave it unset for the embedded queue)\n",
    });
    const { code, stderr } = await failedStart({ PAGEGRADE_QUEUE_URL: "redis://127.0.0.1:1" });
    expect(code).toBe(1);
    expect(stderr).toMatch(
      /^pagegrade: cannot start: cannot reach Redis at PAGEGRADE_QUEUE_URL: .*ECONNREFUSED.*\n$/,
    );
  });

  it("runs background jobs itself on the embedded queue: the maintenance job sweeps expired sessions", {
    timeout: 60_000,
  }, async () => {
    const databaseUrl = `sqlite:${join(dir, "jobs.db")}`;
    const store = await openStore(databaseUrl);
    const { account } = await new AccountService(store).createUser("sessions@example.com", null);
    await store.db
      .insertInto("sessions")
      .values({ digest: "expired", user_id: account.id, flash: null, created_at: "x", expires_at: 1 })
      .execute();
    const service = await startServiceProcess({ DATABASE_URL: databaseUrl });
    try {
      const deadline = Date.now() + 20_000;
      while ((await store.db.selectFrom("sessions").select("digest").execute()).length > 0) {
        if (Date.now() > deadline) throw new Error("the expired session was not swept");
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const jobs = await store.db
        .selectFrom("jobs")
        .select(["name", "state"])
        .where("name", "=", "maintenance")
        .execute();
      expect(jobs).toEqual([{ name: "maintenance", state: "completed" }]);
    } finally {
      service.child.kill("SIGTERM");
      expect(await service.exited).toBe(0);
      await store.close();
    }
  });
});
