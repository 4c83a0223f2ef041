/**
 * A process for the group-commit crash test: on the SQLite file DATABASE_URL names it commits one batch of
 * writes (names "committed-…"), then starts a second batch of 40 large writes ("lost-…") whose
 * last write never returns, so every savepoint of the batch is written and its COMMIT never comes. It prints
 * "committed" after the first batch and "in-commit" once the last write has run, then waits to be killed.
 */
import { sql } from "kysely";
import { openStore } from "../../src/store/database.js";
import { TransactionBatcher, type Write } from "../../src/store/transaction-batcher.js";

const store = await openStore(process.env.DATABASE_URL ?? "");
// A small page cache (256 KiB), so the batch (about 4 MB) outgrows it and SQLite spills its uncommitted pages into
// the WAL before the COMMIT: the crash then leaves frames of a transaction that never committed in the file.
await sql`pragma cache_size = -256`.execute(store.db);
const writes = 40;
const value = "x".repeat(100_000);

const secret =
  (name: string): Write =>
  async (trx) => {
    await trx.insertInto("secrets").values({ name, value }).execute();
  };

const first = new TransactionBatcher(store.db, { windowMs: 60_000, maxWrites: 1_000 });
const committed = ["committed-1", "committed-2", "committed-3"].map((name) => first.run(secret(name)));
await first.commitNow();
await Promise.all(committed);
process.stdout.write("committed\n");

const second = new TransactionBatcher(store.db, { windowMs: 60_000, maxWrites: 1_000 });
for (let index = 1; index < writes; index++) void second.run(secret(`lost-${index}`));
void second.run(async (trx) => {
  await secret(`lost-${writes}`)(trx);
  process.stdout.write("in-commit\n");
  // The process is killed here: inside the last savepoint, before the shared transaction's COMMIT (the timer
  // keeps the process alive meanwhile).
  setInterval(() => {}, 60_000);
  await new Promise(() => {});
});
void second.commitNow();
