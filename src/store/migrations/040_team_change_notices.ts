/**
 * Migration 040 (PostgreSQL only; nothing on SQLite, whose memory is keyed by the change token): change notices
 * for the processes that remember team memberships (src/teams/membership-memory.ts). Every change that affects
 * what a remembered (member, team) -> (role, reports version) says sends
 * `pg_notify('pagegrade_changes', '<schema> team <team id>')` on migration 017's channel, delivered at commit to
 * each process's listening connection (src/store/change-feed.ts), which tells it apart from 017's
 * '<schema> <user id>':
 *
 * - a member added, removed or given another role (`team_members`, row by row: member changes are rare);
 * - the team's reports version raised by migration 038's trigger, by either of its paths: the team's row bumped
 *   (`teams.reports_version`), or a row appended to `team_report_changes` when the row was locked;
 * - the team deleted (its members go by cascade, which notifies too).
 *
 * 038 raises a team's version at most once per transaction, and PostgreSQL sends identical notices of one
 * transaction once, so a transaction costs one notice per team whatever it changed. Renaming a team notifies
 * nothing: neither role nor version changes.
 */
import { type Kysely, type Migration, sql } from "kysely";
import { changeChannel } from "../change-channel.js";
import type { Dialect } from "../store.js";

export function teamChangeNotices(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect !== "postgres") return;
      // The channel's name is a plain identifier (change-channel.ts), safe to quote as a literal.
      const notify = (team: string) =>
        `perform pg_notify('${changeChannel}', tg_table_schema || ' team ' || ${team});`;
      await sql
        .raw(
          `create function notify_team_member_change() returns trigger language plpgsql as $$
           begin
             -- Both teams of a row that moved; one notice when it did not (identical notices are sent once).
             if tg_op <> 'INSERT' then ${notify("old.team_id")} end if;
             if tg_op <> 'DELETE' then ${notify("new.team_id")} end if;
             return null;
           end $$`,
        )
        .execute(db);
      await sql`
        create trigger team_members_notify after insert or update or delete on team_members
        for each row execute function notify_team_member_change()`.execute(db);

      await sql
        .raw(
          `create function notify_team_change() returns trigger language plpgsql as $$
           begin
             if tg_table_name = 'team_report_changes' then ${notify("new.team_id")}
             else ${notify("old.id")}
             end if;
             return null;
           end $$`,
        )
        .execute(db);
      await sql`
        create trigger teams_notify after update of reports_version or delete on teams
        for each row execute function notify_team_change()`.execute(db);
      await sql`
        create trigger team_report_changes_notify after insert on team_report_changes
        for each row execute function notify_team_change()`.execute(db);
    },
  };
}
