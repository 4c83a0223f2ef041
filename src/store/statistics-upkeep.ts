/**
 * PostgreSQL: the planner's statistics kept up by the service itself while it writes fast. A table's statistics
 * come from ANALYZE, which autovacuum runs once 50 rows + 10 % of the table changed since the last one (checked
 * every minute), and never where autovacuum is off. A fresh install's first large crawl grows `reports`,
 * `crawl_pages` and the rest from nothing far faster: planned from a near-empty table's statistics, the report
 * read by URL (one a crawled page) walked every report of the owner backwards by id instead of taking the
 * (user, URL) index, its cost ties with the right index's at that size (measured: 2 ms a page at 3,000 pages,
 * 53 % of PostgreSQL's busy time at 20,000, quadratic in the crawl). So every `checkEvery` pages a process
 * stores, it applies autovacuum's own rule to the current schema's tables and analyses those past it; an ANALYZE
 * also invalidates the prepared statements planned from the old statistics. Where autovacuum keeps up, no
 * table is past the rule and this costs one catalogue read per `checkEvery` pages. One process at a time
 * (a transaction-level advisory lock; the others skip), in the background of the writes that counted.
 */
import { type Kysely, sql } from "kysely";
import type { Database } from "./schema.js";

/** Autovacuum's defaults (autovacuum_analyze_threshold and autovacuum_analyze_scale_factor). */
const analyseThresholdRows = 50;
const analyseScaleFactor = 0.1;
/** The advisory lock that lets one process at a time analyse (any number fits; this one spells "pgst"). */
const upkeepLockKey = 0x70677374;

export class StatisticsUpkeep {
  private written = 0;
  private running: Promise<unknown> | undefined;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly checkEvery = 1_000,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {}

  /** Counts one stored page; every `checkEvery`, analyses the tables past the rule (not awaited). */
  wrote(): void {
    this.written++;
    if (this.written % this.checkEvery !== 0 || this.running) return;
    this.running = this.analyseStale()
      .catch(this.onError)
      .finally(() => {
        this.running = undefined;
      });
  }

  /**
   * Analyses the current schema's tables whose rows changed since their last ANALYZE more than autovacuum's rule
   * allows; the names analysed (none when another process holds the upkeep's lock).
   */
  async analyseStale(): Promise<string[]> {
    return this.db.transaction().execute(async (trx) => {
      const { rows: locked } = await sql<{ taken: boolean }>`
        select pg_try_advisory_xact_lock(${upkeepLockKey}) as taken`.execute(trx);
      if (!locked[0]?.taken) return [];
      const { rows: stale } = await sql<{ name: string }>`
        select c.relname as name
        from pg_stat_user_tables s join pg_class c on c.oid = s.relid
        where s.schemaname = current_schema()
          and s.n_mod_since_analyze > ${analyseThresholdRows} + ${analyseScaleFactor} * greatest(c.reltuples, 0)
        order by c.relname`.execute(trx);
      for (const { name } of stale) await sql`analyze ${sql.id(name)}`.execute(trx);
      return stale.map(({ name }) => name);
    });
  }
}
