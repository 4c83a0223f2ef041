/** Secrets shared by every instance through the database, created once (the first writer wins). */
import { randomBytes } from "node:crypto";
import type { Store } from "./store.js";

export async function sharedSecret(store: Store, name: string): Promise<string> {
  await store.db
    .insertInto("secrets")
    .values({ name, value: randomBytes(32).toString("base64url") })
    .onConflict((conflict) => conflict.column("name").doNothing())
    .execute();
  const row = await store.db
    .selectFrom("secrets")
    .select("value")
    .where("name", "=", name)
    .executeTakeFirstOrThrow();
  return row.value;
}
