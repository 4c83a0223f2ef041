/**
 * Migration 016: the embedded queue shares its workers fairly between users. A job records the user it works
 * for (null: the service's own, such as maintenance), and `job_users` when each user's job was last claimed,
 * so the claim can prefer the user served least recently (src/jobs/fair-claim.ts).
 */
import type { Kysely, Migration } from "kysely";

export function jobFairness(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable("jobs").addColumn("user_id", "integer").execute();
      await db.schema
        .createTable("job_users")
        .addColumn("user_id", "integer", (c) => c.primaryKey())
        .addColumn("served_at", "bigint", (c) => c.notNull())
        .execute();
    },
  };
}
