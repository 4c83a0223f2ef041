/**
 * The queries of a crawl's shared audit: the crawl by id alone (the password gate decides who sees it) and its
 * privacy and password hash changed by its owner.
 */

import type { Kysely } from "kysely";
import { inWorkspace, type Owner } from "../store/owned-rows.js";
import type { Database } from "../store/schema.js";
import type { Store } from "../store/store.js";
import { timestamp } from "../timestamps.js";
import type { CrawlRow } from "./crawl-store.js";

export class CrawlAuditStore {
  private readonly db: Kysely<Database>;

  constructor(store: Store) {
    this.db = store.db;
  }

  /** The crawl, whoever owns it; undefined when there is none. */
  find(id: number): Promise<CrawlRow | undefined> {
    return this.db.selectFrom("crawls").selectAll().where("id", "=", id).executeTakeFirst();
  }

  /** Writes the owner's privacy changes; undefined when the user has no such crawl. */
  update(
    owner: Owner,
    id: number,
    changes: { privacy?: number; password_hash?: string | null },
  ): Promise<CrawlRow | undefined> {
    return this.db
      .updateTable("crawls")
      .set({ ...changes, updated_at: timestamp() })
      .where(inWorkspace(owner))
      .where("id", "=", id)
      .returningAll()
      .executeTakeFirst();
  }
}
