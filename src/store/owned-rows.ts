/** Writes on rows that belong to one user (`user_id`) and are named by their `id`, shared by their stores. */
import type { Kysely } from "kysely";
import type { Database } from "./schema.js";

/** Tables whose rows a user owns by `user_id`, each named by its `id`. */
type OwnedTable = "reports" | "crawls" | "webhooks";

/** Deletes the user's row with this id; false when the user has no such row. */
export async function deleteOwned(
  db: Kysely<Database>,
  table: OwnedTable,
  userId: number,
  id: number,
): Promise<boolean> {
  const result = await db
    .deleteFrom(table)
    .where("user_id", "=", userId)
    .where("id", "=", id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
