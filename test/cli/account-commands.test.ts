/**
 * `pagegrade user create` and `pagegrade key create` on a SQLite database of their own: a working key printed
 * alone on the last line (only its digest stored), refusals with exit 1 or 2, and new keys revoking the old ones
 * unless --keep-old. The commands run in-process (test/helpers/cli-in-process.ts); the first user and the last
 * key are created by the real bin/pagegrade.js.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { AccountService } from "../../src/accounts/account-service.js";
import { openStore } from "../../src/store/database.js";
import { pagegradeInProcess } from "../helpers/cli-in-process.js";
import { pagegradeProcess } from "../helpers/cli-process.js";

const dir = mkdtempSync(join(tmpdir(), "pagegrade-cli-"));
const databaseUrl = `sqlite:${join(dir, "accounts.db")}`;
const pagegrade = (args: string[]) => pagegradeInProcess(args, { DATABASE_URL: databaseUrl });

const lastLine = (text: string) => text.trim().split("\n").at(-1) ?? "";

describe("pagegrade user and key commands", () => {
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("creates a user and prints a working key alone on the last line", async () => {
    // The real command, as an operator runs it.
    const { code, stdout, stderr } = await pagegradeProcess(
      ["user", "create", "--email", "Writer@Example.com", "--password", "long enough"],
      { DATABASE_URL: databaseUrl },
    );
    expect(code, stderr).toBe(0);
    const key = lastLine(stdout);
    expect(key).toMatch(/^pgk_[A-Za-z0-9_-]{43}$/);
    const store = await openStore(databaseUrl);
    try {
      const found = await new AccountService(store).authenticate(key);
      expect(found?.account.email).toBe("writer@example.com");
      const stored = await store.db
        .selectFrom("api_keys")
        .select(["digest", "prefix", "last_four"])
        .execute();
      expect(JSON.stringify(stored)).not.toContain(key);
      expect(stored[0]?.digest).toMatch(/^[0-9a-f]{64}$/);
    } finally {
      await store.close();
    }
  });

  it("refuses a duplicate or malformed e-mail and a short password", async () => {
    const duplicate = await pagegrade(["user", "create", "--email", "writer@example.com"]);
    expect(duplicate.code).toBe(1);
    expect(duplicate.stderr).toBe("pagegrade: a user with the e-mail writer@example.com already exists\n");
    expect((await pagegrade(["user", "create", "--email", "nobody"])).stderr).toContain(
      '"nobody" is not an e-mail address',
    );
    expect(
      (await pagegrade(["user", "create", "--email", "a@b.co", "--password", "short"])).stderr,
    ).toContain("at least 8 characters");
    expect((await pagegrade(["user", "create"])).code).toBe(2);
  });

  it("issues a new key, revoking the old ones unless --keep-old", async () => {
    const first = lastLine((await pagegrade(["user", "create", "--email", "keys@example.com"])).stdout);
    const second = lastLine(
      (await pagegrade(["key", "create", "--email", "keys@example.com", "--keep-old"])).stdout,
    );
    // The real command for `key create` too.
    const issued = await pagegradeProcess(["key", "create", "--email", "keys@example.com"], {
      DATABASE_URL: databaseUrl,
    });
    expect(issued.code, issued.stderr).toBe(0);
    const third = lastLine(issued.stdout);
    const store = await openStore(databaseUrl);
    try {
      const accounts = new AccountService(store);
      expect(await accounts.authenticate(first)).toBeNull();
      expect(await accounts.authenticate(second)).toBeNull();
      expect((await accounts.authenticate(third))?.account.email).toBe("keys@example.com");
    } finally {
      await store.close();
    }
    const unknown = await pagegrade(["key", "create", "--email", "ghost@example.com"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe("pagegrade: no user has the e-mail ghost@example.com\n");
  });
});
