/**
 * A database of the kind migrated up to a named migration only, as an earlier version of the service left it, for
 * the migration tests: write rows the way that version did, then run the remaining migrations. `drop` removes it.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { openStore } from "../../src/store/database.js";
import { migratorOf } from "../../src/store/migrations.js";
import type { Store } from "../../src/store/store.js";
import { type DatabaseKind, postgresUrl } from "./api.js";

export async function databaseMigratedTo(
  kind: DatabaseKind,
  last: string,
): Promise<{ store: Store; drop: () => Promise<void> }> {
  let store: Store;
  let drop: () => Promise<void>;
  if (kind === "sqlite") {
    const dir = mkdtempSync(join(tmpdir(), "pagegrade-migrate-"));
    store = await openStore(`sqlite:${join(dir, "old.db")}`, { migrate: false });
    drop = async () => rmSync(dir, { recursive: true, force: true });
  } else {
    const name = `migrate_${randomBytes(6).toString("hex")}`;
    store = await openStore(postgresUrl, { schema: name, migrate: false });
    drop = async () => {
      const client = new pg.Client({ connectionString: postgresUrl });
      await client.connect();
      await client.query(`drop schema if exists ${name} cascade`);
      await client.end();
    };
  }
  const { error } = await (await migratorOf(store)).migrateTo(last);
  if (error) throw error;
  return { store, drop };
}
