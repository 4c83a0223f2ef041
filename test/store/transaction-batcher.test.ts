/**
 * Group commit on a real SQLite database: writes wait for one shared transaction and settle only once it has
 * committed; a write that throws is undone alone and its caller gets its error; a batch commits when its window
 * ends, when it is full, or when asked; and a write that never committed leaves nothing behind.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openStore, type Store } from "../../src/store/database.js";
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

  it("leaves nothing of writes whose shared transaction never committed", async () => {
    const batcher = new TransactionBatcher(store.db, { windowMs: 60_000, maxWrites: 100 });
    void batcher.run(secret("w1")).catch(() => {});
    // The process stops before the window ends: the connection closes with the write still waiting.
    await store.close();
    store = await openStore(`sqlite:${join(dir, "batch.db")}`);
    expect(await committedNames()).toEqual([]);
    // Its window ending later on the closed connection fails the write; it never reappears.
    await batcher.commitNow().catch(() => {});
    expect(await committedNames()).toEqual([]);
  });
});
