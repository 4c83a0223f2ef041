/**
 * The distributed set-up as the fault suites start it: a PostgreSQL schema of its own and a Redis key prefix of
 * its own, and the settings every API and worker process of the test shares to reach them.
 */
import { randomBytes } from "node:crypto";
import { freshDatabase, postgresUrl, type TestDatabase } from "./api.js";
import { dropRedisKeys, redisUrl } from "./redis.js";

export interface DistributedSetup {
  database: TestDatabase;
  /** DATABASE_URL (the schema first on the search path), PAGEGRADE_QUEUE_URL, PAGEGRADE_REDIS_KEY_PREFIX. */
  shared: Record<"DATABASE_URL" | "PAGEGRADE_QUEUE_URL" | "PAGEGRADE_REDIS_KEY_PREFIX", string>;
  /** Drops the schema and the Redis keys. */
  drop(): Promise<void>;
}

export async function distributedSetup(): Promise<DistributedSetup> {
  const database = await freshDatabase("postgres");
  const prefix = `pagegrade-test:${randomBytes(6).toString("hex")}:`;
  return {
    database,
    shared: {
      DATABASE_URL: `${postgresUrl}?options=-c%20search_path%3D${database.schema}%2Cpublic`,
      PAGEGRADE_QUEUE_URL: redisUrl,
      PAGEGRADE_REDIS_KEY_PREFIX: prefix,
    },
    drop: async () => {
      await database.drop();
      await dropRedisKeys(prefix);
    },
  };
}
