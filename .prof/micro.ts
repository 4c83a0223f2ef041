import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AccountService } from "../src/accounts/account-service.js";
import { openStore } from "../src/store/database.js";
import { sqliteDatabaseClass } from "../src/store/sqlite-driver.js";
const dir = mkdtempSync(join(tmpdir(), "prof-"));
const file = join(dir, "b.db");
const store = await openStore(`sqlite:${file}`, {});
const accounts = new AccountService(store);
const { key } = await accounts.createUser("a@example.com", null);
for (let i = 0; i < 3; i++) { const t = performance.now(); for (let j = 0; j < 10000; j++) await accounts.authenticate(key); console.log("kysely authenticate µs", ((performance.now() - t) / 10000 * 1000).toFixed(1)); }
const db = new (sqliteDatabaseClass())(file);
const stmt = db.prepare(`select "users"."id", "users"."email", "users"."created_at", "users"."updated_at", "users"."reports_version", "api_keys"."id" as "key_id" from "api_keys" inner join "users" on "users"."id" = "api_keys"."user_id" where "api_keys"."digest" = ? and "api_keys"."revoked_at" is null`);
const d = db.prepare("select digest from api_keys").get() as any;
for (let i = 0; i < 3; i++) { const t = performance.now(); for (let j = 0; j < 10000; j++) stmt.all(d.digest); console.log("raw all µs", ((performance.now() - t) / 10000 * 1000).toFixed(1)); }
console.log(db.prepare("explain query plan " + stmt.source).all(d.digest));
