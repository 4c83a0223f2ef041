/**
 * Rows that belong to a workspace (api-contract part 4): a user's own (`user_id` = the user, `team_id` null) or a
 * team's (`team_id` = the team, whoever of its members made it; `user_id` still records them). Every store
 * finds such rows through `inWorkspace`, so a row is reachable only through its own workspace; and shares the
 * delete of one row named by its `id`.
 */
import { type Expression, type Kysely, type SqlBool, sql } from "kysely";
import type { Database } from "./schema.js";

/** Whose rows a query sees: the user's own workspace (`teamId` null) or a team's, and who acts in it. */
export interface WorkspaceScope {
  readonly userId: number;
  readonly teamId: number | null;
}

/** A workspace, or a user id alone for that user's own (the command line, the worker, the tests). */
export type Owner = number | WorkspaceScope;

export function scopeOf(owner: Owner): WorkspaceScope {
  return typeof owner === "number" ? { userId: owner, teamId: null } : owner;
}

/** The workspace that holds a row (its creator's own, or its team's; a row read without `team_id`: the own). */
export function workspaceOf(row: { user_id: number; team_id?: number | null }): WorkspaceScope {
  return { userId: row.user_id, teamId: row.team_id ?? null };
}

/**
 * The condition that keeps a query to the workspace's rows of `table` (named when the query joins others):
 * personal `user_id = ? and team_id is null`, team `team_id = ?` (both served by partial indexes, migration 035).
 */
export function inWorkspace(owner: Owner, table?: string): Expression<SqlBool> {
  const { userId, teamId } = scopeOf(owner);
  const column = (name: string) => sql.ref(table ? `${table}.${name}` : name);
  return teamId === null
    ? sql<SqlBool>`${column("user_id")} = ${userId} and ${column("team_id")} is null`
    : sql<SqlBool>`${column("team_id")} = ${teamId}`;
}

/** Tables whose rows a workspace owns, each named by its `id`. */
type OwnedTable = "reports" | "crawls" | "webhooks";

/** Deletes the workspace's row with this id; false when the workspace has no such row. */
export async function deleteOwned(
  db: Kysely<Database>,
  table: OwnedTable,
  owner: Owner,
  id: number,
): Promise<boolean> {
  const result = await db.deleteFrom(table).where(inWorkspace(owner)).where("id", "=", id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
