/**
 * Group commit on a real SQLite database: writes wait for one shared transaction and settle only once it has
 * committed; a write that throws is undone alone and its caller gets its error; a batch commits when its window
 * ends, when it is full, or when asked; and a batch whose process is killed before its COMMIT leaves nothing
 * behind, in a database that is intact.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openStore } from "../../src/store/database.js";
import type { Store } from "../../src/store/store.js";
import { TransactionBatcher, type Write } from "../../src/store/transaction-batcher.js";

let dir: string;
let store: Store;
/** A second connection to the same file: it sees only what was committed. */
let reader: Store;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "pagegrade-batcher-"));
  store = await openStore(`sqlite:${join(dir, "batch.db")}`);
  reader = await openStore(`sqlite:${join(dir, "batch.db")}`, { migrate: false });
});

afterEach(async () => {
  await store.close();
  await reader.close();
  rmSync(dir, { recursive: true, force: true });
});

const secret =
  (name: string): Write =>
  async (trx) => {
    await trx.insertInto("secrets").values({ name, value: "v" }).execute();
  };

async function committedNames(): Promise<string[]> {
  const rows = await reader.db.selectFrom("secrets").select("name").where("name", "like", "w%").execute();
  return rows.map((row) => row.name).sort();
}

describe("TransactionBatcher", () => {
  it("commits the writes of one window together, and settles each only after the commit", async () => {
    const batcher = new TransactionBatcher(store.db, { windowMs: 50, maxWrites: 100 });
    const settled: string[] = [];
    const writes = ["w1", "w2", "w3"].map((name) => batcher.run(secret(name)).then(() => settled.push(name)));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(settled).toEqual([]);
    expect(await committedNames()).toEqual([]);
    await Promise.all(writes);
    expect(settled).toEqual(["w1", "w2", "w3"]);
    expect(await committedNames()).toEqual(["w1", "w2", "w3"]);
  });

  it("undoes a write that throws, and only that one", async () => {
    const batcher = new TransactionBatcher(store.db, { windowMs: 20, maxWrites: 100 });
    const failing: Write = async (trx) => {
      await trx.insertInto("secrets").values({ name: "w-half", value: "v" }).execute();
      throw new Error("the page's write failed");
    };
    const duplicate: Write = async (trx) => {
      await trx.insertInto("secrets").values({ name: "w1", value: "again" }).execute();
    };
    const outcomes = await Promise.allSettled([
      batcher.run(secret("w1")),
      batcher.run(failing),
      batcher.run(duplicate),
      batcher.run(secret("w2")),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual([
      "fulfilled",
      "rejected",
      "rejected",
      "fulfilled",
    ]);
    expect((outcomes[1] as PromiseRejectedResult).reason).toBeInstanceOf(Error);
    expect(String((outcomes[1] as PromiseRejectedResult).reason.message)).toBe("the page's write failed");
    expect(String((outcomes[2] as PromiseRejectedResult).reason.message)).toMatch(/UNIQUE constraint failed/);
    expect(await committedNames()).toEqual(["w1", "w2"]);
    const kept = await reader.db
      .selectFrom("secrets")
      .select("value")
      .where("name", "=", "w1")
      .executeTakeFirst();
    expect(kept?.value).toBe("v");
  });

  it("commits a full batch at once, and the waiting writes when asked", async () => {
    const batcher = new TransactionBatcher(store.db, { windowMs: 60_000, maxWrites: 2 });
    await Promise.all([batcher.run(secret("w1")), batcher.run(secret("w2"))]);
    expect(await committedNames()).toEqual(["w1", "w2"]);
    const third = batcher.run(secret("w3"));
    expect(await committedNames()).toEqual(["w1", "w2"]);
    expect(await batcher.commitNow()).toBe(true);
    await third;
    expect(await committedNames()).toEqual(["w1", "w2", "w3"]);
    expect(await batcher.commitNow()).toBe(false);
  });

  it("leaves nothing of a batch whose process was killed after its savepoints, before its COMMIT", {
    timeout: 120_000,
  }, async () => {
    const file = join(dir, "crash.db");
    const child = spawn(process.execPath, ["--import", "tsx", "test/helpers/group-commit-process.ts"], {
      env: { ...process.env, DATABASE_URL: `sqlite:${file}` },
      stdio: ["ignore", "pipe", "inherit"],
      // A process that never reaches its commit is killed before the test's own time runs out.
      timeout: 100_000,
      killSignal: "SIGKILL",
    });
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.once("exit", (_code, signal) => resolve(signal)),
    );
    const lines: string[] = [];
    const walBytes: number[] = [];
    const inCommit = new Promise<void>((resolve, reject) => {
      let buffered = "";
      child.stdout.on("data", (chunk: Buffer) => {
        buffered += chunk.toString();
        for (let end = buffered.indexOf("\n"); end >= 0; end = buffered.indexOf("\n")) {
          lines.push(buffered.slice(0, end));
          buffered = buffered.slice(end + 1);
          walBytes.push(statSync(`${file}-wal`).size);
          if (lines.at(-1) === "in-commit") resolve();
        }
      });
      void exited.then(() => reject(new Error(`the process ended early, after ${JSON.stringify(lines)}`)));
    });
    try {
      await inCommit;
    } finally {
      child.kill("SIGKILL");
    }
    expect(await exited).toBe("SIGKILL");
    expect(lines).toEqual(["committed", "in-commit"]);
    // The batch outgrew the page cache, so uncommitted pages of it were in the WAL when the process died.
    expect((walBytes[1] ?? 0) - (walBytes[0] ?? 0)).toBeGreaterThan(1_000_000);

    const after = await openStore(`sqlite:${file}`, { migrate: false });
    try {
      const names = (await after.db.selectFrom("secrets").select("name").execute()).map((row) => row.name);
      expect(names.filter((name) => name.startsWith("lost-"))).toEqual([]);
      expect(names.filter((name) => name.startsWith("committed-")).sort()).toEqual([
        "committed-1",
        "committed-2",
        "committed-3",
      ]);
      const integrity = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(after.db);
      expect(integrity.rows).toEqual([{ integrity_check: "ok" }]);
      // The database takes the same writes again, as a crawl does when it fetches the lost pages anew.
      const batcher = new TransactionBatcher(after.db, { windowMs: 10, maxWrites: 100 });
      await batcher.run(secret("lost-1"));
      const again = await after.db
        .selectFrom("secrets")
        .select("name")
        .where("name", "=", "lost-1")
        .execute();
      expect(again).toHaveLength(1);
    } finally {
      await after.close();
    }
  });
});
