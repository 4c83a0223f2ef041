/**
 * Which due jobs the embedded queue claims next, fairly between users. Of the jobs due (waiting and due, or
 * running under a lease that ran out), each user's are numbered in their own order (due time, then id); a job's
 * turn is that number plus the user's jobs already running. The claim takes the lowest turns first, and among
 * equal turns the user whose job was claimed least recently (`job_users`), then the earliest due. So users with
 * work take turns, one job each, whatever the size of their backlogs: a user's new job waits for at most the
 * one slot that frees up next. Jobs of no user (the service's own) take turns as one more user.
 */
import { type Kysely, sql } from "kysely";
import type { Database } from "../store/schema.js";

/** The ids of at most `limit` jobs of `names` to claim at `now`, in the order they should run. */
export async function fairCandidates(
  db: Kysely<Database>,
  names: string[],
  now: number,
  limit: number,
): Promise<number[]> {
  const among = sql.join(names);
  const { rows } = await sql<{ id: number }>`
    with due as (
      select id, run_at, coalesce(user_id, 0) as user_key,
        row_number() over (partition by coalesce(user_id, 0) order by run_at, id) as place
      from jobs
      where name in (${among})
        and ((state = 'waiting' and run_at <= ${now}) or (state = 'running' and locked_until < ${now}))
    ),
    busy as (
      select coalesce(user_id, 0) as user_key, count(*) as running
      from jobs
      where name in (${among}) and state = 'running' and locked_until >= ${now}
      group by coalesce(user_id, 0)
    )
    select due.id from due
    left join busy on busy.user_key = due.user_key
    left join job_users on job_users.user_id = due.user_key
    order by due.place + coalesce(busy.running, 0), coalesce(job_users.served_at, 0), due.run_at, due.id
    limit ${limit}`.execute(db);
  return rows.map((row) => Number(row.id));
}

/** Records that the users of these claimed jobs were served at `now` (0 for the service's own jobs). */
export async function recordService(
  db: Kysely<Database>,
  users: Array<number | null>,
  now: number,
): Promise<void> {
  const distinct = [...new Set(users.map((user) => user ?? 0))];
  if (distinct.length === 0) return;
  await db
    .insertInto("job_users")
    .values(distinct.map((user_id) => ({ user_id, served_at: now })))
    .onConflict((conflict) => conflict.column("user_id").doUpdateSet({ served_at: now }))
    .execute();
}
