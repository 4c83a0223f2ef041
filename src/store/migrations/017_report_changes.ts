/**
 * Migration 017 (PostgreSQL only): the reports version without a per-user hot spot, and change notices for the
 * processes that remember key owners.
 *
 * Migration 010's trigger bumped `users.reports_version` in every transaction that changed a report, holding
 * the owner's row lock until commit, so the pages of one user's crawl, each committed in its own transaction,
 * committed one at a time. Now a changing statement bumps the counter only if it can lock the owner's row at
 * once (`for no key update skip locked`: never waiting, and no conflict with the foreign-key checks of other
 * inserts); if another transaction holds it, the statement appends a row to `report_changes` instead. A
 * version is the counter plus the owner's rows there, read in one statement (AccountService), so every committed
 * change raises it by at least one, whichever path it took. Whoever bumps the counter folds the rows committed
 * (or added by its own transaction) into it in the same statement, so the log stays as short as the number of
 * transactions that overlapped; only folders delete rows, and the row lock lets one fold at a time, so nothing
 * ever waits on the log either.
 *
 * Every change that affects what a remembered key owner says (a report or analysis changed, a key revoked or
 * deleted, an account changed or deleted) sends `pg_notify('pagegrade_changes', '<schema> <user id>')`, delivered
 * at commit to the listening connection of each process (src/store/change-feed.ts).
 */
import { type Kysely, type Migration, type RawBuilder, sql } from "kysely";
import { changeChannel } from "../change-channel.js";
import type { Dialect } from "../store.js";

// Notices go to `changeChannel` (change-channel.ts); the payload is the changed table's schema and the user's id.

export function reportChanges(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect !== "postgres") return;
      await db.schema
        .createTable("report_changes")
        .addColumn("id", "bigint", (c) => c.primaryKey().generatedByDefaultAsIdentity())
        .addColumn("user_id", "integer", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("report_changes_user").on("report_changes").column("user_id").execute();

      // Called by migration 010's statement triggers on reports and analyses, with the same name.
      await bumpReportsVersionFunction({ oncePerTransaction: false }).execute(db);

      await sql`
        create function notify_key_owner_change() returns trigger language plpgsql as $$
        declare
          owner integer;
        begin
          for owner in select distinct user_id from changed_before loop
            perform pg_notify(${sql.lit(changeChannel)}, tg_table_schema || ' ' || owner);
          end loop;
          return null;
        end $$`.execute(db);
      for (const event of ["update", "delete"])
        await sql
          .raw(
            `create trigger api_keys_owner_${event} after ${event} on api_keys
             referencing old table as changed_before for each statement execute function notify_key_owner_change()`,
          )
          .execute(db);

      // An account's own columns (not reports_version: the version's notices cover it), row by row (a trigger
      // with a column list cannot have transition tables); a deleted account's pending version rows go with it.
      await sql`
        create function notify_account_change() returns trigger language plpgsql as $$
        begin
          if tg_op = 'DELETE' then
            delete from report_changes where user_id = old.id;
          end if;
          perform pg_notify(${sql.lit(changeChannel)}, tg_table_schema || ' ' || old.id);
          return null;
        end $$`.execute(db);
      await sql`
        create trigger users_owner_update after update of email, password_hash, created_at, updated_at on users
        for each row execute function notify_account_change()`.execute(db);
      await sql`
        create trigger users_owner_delete after delete on users
        for each row execute function notify_account_change()`.execute(db);
    },
  };
}

/**
 * The trigger function that bumps the changed rows' owners (this migration's), and migration 033's, which bumps
 * an owner once per transaction: the owners bumped are remembered in a transaction-local setting.
 */
export function bumpReportsVersionFunction(options: { oncePerTransaction: boolean }): RawBuilder<unknown> {
  const once = options.oncePerTransaction;
  return sql`
    create or replace function bump_reports_version() returns trigger language plpgsql as $$
    declare
      owner integer;
      owners integer[];
      ${sql.raw(once ? "bumped text := coalesce(current_setting('pagegrade.versioned_owners', true), ''); mark text;" : "")}
    begin
      if tg_op = 'DELETE' then
        select array_agg(distinct user_id order by user_id) into owners from changed_before;
      else
        select array_agg(distinct user_id order by user_id) into owners from changed_after;
      end if;
      foreach owner in array coalesce(owners, '{}') loop
        ${sql.raw(once ? "mark := ' ' || tg_table_schema || '.' || owner || ' '; continue when position(mark in bumped) > 0;" : "")}
        perform 1 from users where id = owner for no key update skip locked;
        if found then
          with folded as (delete from report_changes where user_id = owner returning 1)
          update users set reports_version = reports_version + 1 + (select count(*) from folded)
            where id = owner;
        else
          insert into report_changes (user_id) values (owner);
        end if;
        perform pg_notify(${sql.lit(changeChannel)}, tg_table_schema || ' ' || owner);
        ${sql.raw(once ? "bumped := bumped || mark;" : "")}
      end loop;
      ${sql.raw(once ? "perform set_config('pagegrade.versioned_owners', bumped, true);" : "")}
      return null;
    end $$`;
}
