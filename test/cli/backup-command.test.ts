/**
 * `pagegrade backup` refusing what it must, as a real process: an existing target without `--force` (left as it
 * was), a PostgreSQL DATABASE_URL (it names `pg_dump` instead), a database that does not exist (not created by
 * asking), a missing file argument. Backing up a service while it writes is proven in move-to-postgres.test.ts.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { AccountService } from "../../src/accounts/account-service.js";
import { openStore } from "../../src/store/database.js";
import { pagegrade } from "../helpers/pagegrade-command.js";

const dir = mkdtempSync(join(tmpdir(), "pagegrade-backup-"));
const databaseUrl = `sqlite:${join(dir, "live.db")}`;

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("pagegrade backup", () => {
  it("refuses to replace a file unless --force, and then replaces it with a working copy", async () => {
    const store = await openStore(databaseUrl);
    await new AccountService(store).createUser("kept@example.com", null);
    await store.close();
    const target = join(dir, "existing.db");
    writeFileSync(target, "not a database");
    const refused = await pagegrade(["backup", target], { DATABASE_URL: databaseUrl });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(`pagegrade: backup: ${target} exists; pass --force to replace it\n`);
    expect(readFileSync(target, "utf8")).toBe("not a database");

    const forced = await pagegrade(["backup", target, "--force"], { DATABASE_URL: databaseUrl });
    expect(forced.code, forced.stderr).toBe(0);
    const copy = await openStore(`sqlite:${target}`);
    const users = await copy.db.selectFrom("users").select("email").execute();
    await copy.close();
    expect(users).toEqual([{ email: "kept@example.com" }]);
  });

  it("names pg_dump for a PostgreSQL database", async () => {
    const result = await pagegrade(["backup", join(dir, "pg.dump")], {
      DATABASE_URL: "postgres://pagegrade:secret@db.internal:5432/pagegrade",
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("pg_dump --format=custom");
    expect(result.stderr).toContain("postgres://pagegrade:***@db.internal:5432/pagegrade");
    expect(result.stderr).not.toContain("secret");
    expect(existsSync(join(dir, "pg.dump"))).toBe(false);
  });

  it("refuses a database that does not exist, without creating it, and a missing file argument", async () => {
    const missing = join(dir, "nowhere", "missing.db");
    const result = await pagegrade(["backup", join(dir, "copy.db")], { DATABASE_URL: `sqlite:${missing}` });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`pagegrade: backup: there is no database at ${missing}: nothing to back up\n`);
    expect(existsSync(missing)).toBe(false);
    expect(existsSync(join(dir, "copy.db"))).toBe(false);
    const noFile = await pagegrade(["backup"], { DATABASE_URL: databaseUrl });
    expect(noFile.code).toBe(2);
    expect(noFile.stderr).toContain("backup needs the file to write");
  });
});
