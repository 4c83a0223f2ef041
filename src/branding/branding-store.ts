/**
 * The brandings table (migration 032): one row per owner, a user (`user_id`) or a team (`team_id`), read,
 * written whole and deleted by owner.
 */

import type { Kysely, Selectable } from "kysely";
import type { WorkspaceScope } from "../store/owned-rows.js";
import type { BrandingsTable, Database } from "../store/schema.js";
import type { Store } from "../store/store.js";

export type BrandingRow = Selectable<BrandingsTable>;

/** Who a branding belongs to. */
export type BrandOwner = { kind: "user"; id: number } | { kind: "team"; id: number };

/** The brand of a workspace: its team's, or the user's own. */
export function brandOwnerOf(workspace: WorkspaceScope): BrandOwner {
  return workspace.teamId === null
    ? { kind: "user", id: workspace.userId }
    : { kind: "team", id: workspace.teamId };
}

export interface StoredBranding {
  brand_name: string | null;
  logo: Buffer | null;
  logo_type: string | null;
  updated_at: string;
}

export class BrandingStore {
  private readonly db: Kysely<Database>;

  constructor(store: Store) {
    this.db = store.db;
  }

  find(owner: BrandOwner): Promise<BrandingRow | undefined> {
    return this.db
      .selectFrom("brandings")
      .selectAll()
      .where(ownerColumn(owner), "=", owner.id)
      .executeTakeFirst();
  }

  /** Replaces the owner's branding (one row per owner, so a second PUT is an update). */
  async save(owner: BrandOwner, branding: StoredBranding): Promise<BrandingRow> {
    return this.db
      .insertInto("brandings")
      .values({ ...branding, user_id: null, team_id: null, [ownerColumn(owner)]: owner.id })
      .onConflict((conflict) => conflict.column(ownerColumn(owner)).doUpdateSet(branding))
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async delete(owner: BrandOwner): Promise<boolean> {
    const result = await this.db
      .deleteFrom("brandings")
      .where(ownerColumn(owner), "=", owner.id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}

function ownerColumn(owner: BrandOwner): "user_id" | "team_id" {
  return owner.kind === "user" ? "user_id" : "team_id";
}
