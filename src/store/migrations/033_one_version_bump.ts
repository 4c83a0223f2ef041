/**
 * Migration 033 (PostgreSQL only): a transaction raises an owner's reports version once, however many of its
 * statements change the owner's reports and analyses. A crawled page's one statement inserts a report and its
 * analysis, so migration 017's statement triggers (one on each table) bumped the owner twice per page: two
 * updates of the owner's row (or two rows appended to `report_changes`) and two notices. A version is read only
 * after commit (the API's response cache keys by it), so one bump per committed transaction keeps its promise:
 * every committed change raises it by at least one.
 *
 * The trigger remembers the owners it bumped in a transaction-local setting (`set_config(…, true)`), keyed by
 * the changed table's schema and the owner's id; PostgreSQL undoes the setting with the (sub)transaction that
 * set it, so a savepoint rolled back takes its bump and the memory of it together, and a later change bumps
 * again. SQLite keeps its row triggers (one writer, no notices): nothing changes there.
 */
import type { Kysely, Migration } from "kysely";
import type { Dialect } from "../store.js";
import { bumpReportsVersionFunction } from "./017_report_changes.js";

export function oneVersionBump(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect !== "postgres") return;
      // Migration 017's function, the owners already bumped in this transaction skipped.
      await bumpReportsVersionFunction({ oncePerTransaction: true }).execute(db);
    },
  };
}
