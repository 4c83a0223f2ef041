import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BatchedRateCounters } from "../../src/limits/batched-rate-counters.js";
import { DatabaseRateCounters } from "../../src/limits/database-rate-counters.js";
import { freshDatabase, type TestDatabase } from "../helpers/api.js";

describe("BatchedRateCounters over the database's counters", () => {
  let database: TestDatabase;
  let shared: DatabaseRateCounters;
  let writes: number;
  const window = 1_800_000_000;

  beforeEach(async () => {
    database = await freshDatabase("sqlite");
    const counters = new DatabaseRateCounters(database.store);
    writes = 0;
    // Counts the writes that reach the database, through the real counters.
    shared = Object.assign(Object.create(counters), {
      increment: (...args: Parameters<DatabaseRateCounters["increment"]>) => {
        writes++;
        return counters.increment(...args);
      },
    });
  });
  afterEach(async () => database.drop());

  it("counts exactly in one process while writing in batches", async () => {
    const counters = new BatchedRateCounters(shared, 1_000_000, 20);
    const counts: number[] = [];
    for (let hit = 0; hit < 200; hit++) counts.push(await counters.increment("requests:1", window, 60));
    expect(counts).toEqual(Array.from({ length: 200 }, (_, index) => index + 1));
    expect(writes).toBeLessThan(10);
    await counters.close();
    expect(await shared.count("requests:1", window)).toBe(200);
  });

  it("starts from the count other processes left, and counts every hit at once from half the limit", async () => {
    await shared.increment("requests:2", window, 60, 7);
    const counters = new BatchedRateCounters(shared, 8, 1_000);
    expect(await counters.increment("requests:2", window, 60)).toBe(8);
    const before = writes;
    // Another process counts 5 more: from here on every hit is written and read back, so they show at once.
    await shared.increment("requests:2", window, 60, 5);
    expect(await counters.increment("requests:2", window, 60)).toBe(14);
    expect(writes).toBe(before + 2);
    await counters.close();
  });

  it("adds every pending hit on close", async () => {
    const counters = new BatchedRateCounters(shared, 1_000_000, 60_000);
    for (let hit = 0; hit < 50; hit++) await counters.increment("requests:3", window, 60);
    expect(await shared.count("requests:3", window)).toBe(1);
    expect(await counters.count("requests:3", window)).toBe(50);
    await counters.close();
    expect(await shared.count("requests:3", window)).toBe(50);
  });
});
