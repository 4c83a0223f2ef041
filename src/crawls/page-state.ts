/**
 * A crawl page's state as a literal of the statement rather than a parameter. PostgreSQL's index of the pages not
 * yet done (`crawl_pages_state`, partial since migration 043) serves a query only when the planner can prove the
 * query's state is not `done`, which it cannot for a parameter in a prepared statement's generic plan.
 */
import { type RawBuilder, sql } from "kysely";
import type { CrawlPageState } from "../store/schema.js";

export function pageState<S extends CrawlPageState>(state: S): RawBuilder<S> {
  return sql.lit(state);
}
