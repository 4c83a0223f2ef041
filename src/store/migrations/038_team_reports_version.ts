/**
 * Migration 038: `teams.reports_version`, a team's counterpart of `users.reports_version` (migrations 010, 017,
 * 033): a number the database itself raises whenever any report of the team's workspace, or any analysis of such a
 * report, is inserted, updated or deleted, by whatever code path, in the same transaction as the change. It is read
 * with the member's role on every request that names the team (TeamStore.roleAndVersion), so the API's response cache
 * keeps a team's answers per workspace (http/response-cache.ts) and never serves one after a change.
 *
 * An analysis belongs to its report's team (analyses carry no team of their own in their writes), so the analyses'
 * triggers find the team through the report. A report that moves between workspaces bumps both.
 *
 * SQLite: row triggers, as migration 010's. PostgreSQL: statement triggers over transition tables with 017's
 * hot-spot avoidance and 033's once-per-transaction: the team's row is bumped only if it can be locked at once
 * (`for no key update skip locked`), else a row is appended to `team_report_changes`; the version is the counter
 * plus the team's rows there, read in one statement; whoever bumps the counter folds the log into it. A team being
 * deleted (its rows going by cascade) is not bumped: its row is no longer visible to the deleting transaction.
 */
import { type Kysely, type Migration, sql } from "kysely";
import type { Dialect } from "../store.js";

export function teamReportsVersion(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      // PostgreSQL runs each migration in a transaction; on SQLite this one opens its own, so a failure halfway
      // leaves neither the column nor some of the triggers.
      if (dialect === "postgres") return postgres(db);
      await db.transaction().execute((trx) => sqlite(trx));
    },
  };
}

async function addVersionColumn(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("teams")
    .addColumn("reports_version", "bigint", (c) => c.notNull().defaultTo(0))
    .execute();
}

async function sqlite(db: Kysely<unknown>): Promise<void> {
  await addVersionColumn(db);
  // The team a changed row names: a report's own, an analysis's through its report.
  const teamOf = (table: string, row: string) =>
    table === "reports" ? `${row}.team_id` : `(select team_id from reports where id = ${row}.report_id)`;
  for (const table of ["reports", "analyses"]) {
    for (const [event, rows] of [
      ["insert", ["new"]],
      ["update", ["new", "old"]],
      ["delete", ["old"]],
    ] as const) {
      const teams = rows.map((row) => teamOf(table, row)).join(", ");
      await sql
        .raw(
          `create trigger ${table}_team_version_${event} after ${event} on ${table} for each row begin
                 update teams set reports_version = reports_version + 1 where id in (${teams});
               end`,
        )
        .execute(db);
    }
  }
}

async function postgres(db: Kysely<unknown>): Promise<void> {
  await addVersionColumn(db);
  await db.schema
    .createTable("team_report_changes")
    .addColumn("id", "bigint", (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn("team_id", "integer", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("team_report_changes_team")
    .on("team_report_changes")
    .column("team_id")
    .execute();
  await sql`
    create function bump_team_reports_version() returns trigger language plpgsql as $$
    declare
      team integer;
      changed integer[];
      bumped text := coalesce(current_setting('pagegrade.versioned_teams', true), '');
      mark text;
    begin
      if tg_table_name = 'reports' then
        if tg_op = 'INSERT' then
          select array_agg(distinct team_id order by team_id) into changed from changed_after
            where team_id is not null;
        elsif tg_op = 'UPDATE' then
          select array_agg(distinct team_id order by team_id) into changed
            from (select team_id from changed_after union select team_id from changed_before) moved
            where team_id is not null;
        else
          select array_agg(distinct team_id order by team_id) into changed from changed_before
            where team_id is not null;
        end if;
      else
        if tg_op = 'INSERT' then
          select array_agg(distinct r.team_id order by r.team_id) into changed
            from changed_after a join reports r on r.id = a.report_id where r.team_id is not null;
        elsif tg_op = 'UPDATE' then
          select array_agg(distinct r.team_id order by r.team_id) into changed
            from (select report_id from changed_after union select report_id from changed_before) a
            join reports r on r.id = a.report_id where r.team_id is not null;
        else
          select array_agg(distinct r.team_id order by r.team_id) into changed
            from changed_before a join reports r on r.id = a.report_id where r.team_id is not null;
        end if;
      end if;
      foreach team in array coalesce(changed, '{}') loop
        mark := ' ' || tg_table_schema || '.' || team || ' ';
        continue when position(mark in bumped) > 0;
        perform 1 from teams where id = team for no key update skip locked;
        if found then
          with folded as (delete from team_report_changes where team_id = team returning 1)
          update teams set reports_version = reports_version + 1 + (select count(*) from folded)
            where id = team;
        elsif exists (select 1 from teams where id = team) then
          insert into team_report_changes (team_id) values (team);
        end if;
        bumped := bumped || mark;
      end loop;
      perform set_config('pagegrade.versioned_teams', bumped, true);
      return null;
    end $$`.execute(db);
  for (const table of ["reports", "analyses"])
    for (const [event, transition] of [
      ["insert", "new table as changed_after"],
      ["update", "old table as changed_before new table as changed_after"],
      ["delete", "old table as changed_before"],
    ]) {
      await sql
        .raw(
          `create trigger ${table}_team_version_${event} after ${event} on ${table}
           referencing ${transition} for each statement execute function bump_team_reports_version()`,
        )
        .execute(db);
    }
  // A deleted team's pending log rows go with it.
  await sql`
    create function forget_team_report_changes() returns trigger language plpgsql as $$
    begin
      delete from team_report_changes where team_id = old.id;
      return null;
    end $$`.execute(db);
  await sql`
    create trigger teams_forget_changes after delete on teams
    for each row execute function forget_team_report_changes()`.execute(db);
}
