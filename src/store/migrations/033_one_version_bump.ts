/**
 * Migration 033 (PostgreSQL only): a transaction raises an owner's reports version once, however many of its
 * statements change the owner's reports and analyses. A crawled page's one statement inserts a report and its
 * analysis, so migration 017's statement triggers (one on each table) bumped the owner twice per page: two
 * updates of the owner's row (or two rows appended to `report_changes`) and two notices. A version is read only
 * after commit (the API's response cache keys by it), so one bump per committed transaction keeps its promise:
 * every committed change raises it by at least one.
 *
 * The trigger remembers the owners it bumped in a transaction-local setting (`set_config(…, true)`), keyed by
 * the changed table's schema and the owner's id; PostgreSQL undoes the setting with the (sub)transaction that
 * set it, so a savepoint rolled back takes its bump and the memory of it together, and a later change bumps
 * again. SQLite keeps its row triggers (one writer, no notices): nothing changes there.
 */
import { type Kysely, type Migration, sql } from "kysely";
import { changeChannel } from "../change-channel.js";
import type { Dialect } from "../store.js";

export function oneVersionBump(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect !== "postgres") return;
      // Migration 017's function, the owners already bumped in this transaction skipped.
      await sql`
        create or replace function bump_reports_version() returns trigger language plpgsql as $$
        declare
          owner integer;
          owners integer[];
          bumped text := coalesce(current_setting('pagegrade.versioned_owners', true), '');
          mark text;
        begin
          if tg_op = 'DELETE' then
            select array_agg(distinct user_id order by user_id) into owners from changed_before;
          else
            select array_agg(distinct user_id order by user_id) into owners from changed_after;
          end if;
          foreach owner in array coalesce(owners, '{}') loop
            mark := ' ' || tg_table_schema || '.' || owner || ' ';
            continue when position(mark in bumped) > 0;
            perform 1 from users where id = owner for no key update skip locked;
            if found then
              with folded as (delete from report_changes where user_id = owner returning 1)
              update users set reports_version = reports_version + 1 + (select count(*) from folded)
                where id = owner;
            else
              insert into report_changes (user_id) values (owner);
            end if;
            perform pg_notify(${sql.lit(changeChannel)}, tg_table_schema || ' ' || owner);
            bumped := bumped || mark;
          end loop;
          perform set_config('pagegrade.versioned_owners', bumped, true);
          return null;
        end $$`.execute(db);
    },
  };
}
