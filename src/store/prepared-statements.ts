/**
 * PostgreSQL: the statements the service runs over and over (a crawled page's dozen writes, a claim, a report
 * read by its key) as named prepared statements, so that each connection parses and plans them once instead of
 * on every run. Measured on a crawl, planning was a quarter of PostgreSQL's time on its statements, and more
 * than the run itself for a report read by URL, which the planner weighs against the reports table's twenty
 * indexes each time.
 *
 * Kysely sends every query as text with its parameters; the pool given to its dialect here names a query's
 * text once it has run `usesBeforeNaming` times, so one-off statements (migrations, a rare listing, a long
 * `in (…)` list of one size) stay unnamed. At most `namedLimit` texts are named per process, and each
 * connection prepares only those it runs: PostgreSQL keeps a connection's prepared statements until it closes,
 * so this bounds their memory on the server. Statements without parameters (`begin`, `commit`, DDL) and those
 * with more than `parameterLimit` (multi-row inserts, whose text changes with their row count) are never named.
 *
 * A prepared statement whose tables another process altered since may fail once with "cached plan must not
 * change result type" (SQLSTATE 0A000, a `select *` after a column was added). Its text is then forgotten and
 * named afresh on its next uses, so the connection prepares it again.
 */
import type { PostgresPool, PostgresPoolClient, PostgresQueryResult } from "kysely";
import type pg from "pg";

/** Runs of a text before it is named. */
const usesBeforeNaming = 3;
/** Texts named per process at most (each connection prepares at most these). */
const namedLimit = 200;
/** Texts counted at most while they are not yet named (the least recently seen forgotten first). */
const countedLimit = 2_000;
/**
 * Parameters of a named statement at most: a crawled page's one statement on PostgreSQL (its report, analysis,
 * facts and arrays of links, URLs and checks) binds about 70; a multi-row insert of many rows binds more.
 */
const parameterLimit = 128;

/** Which statement texts are named, and by what name. */
export class StatementNames {
  private readonly named = new Map<string, string>();
  private readonly uses = new Map<string, number>();
  private nextName = 1;

  /** The name to run `text` under, or undefined to run it unnamed. */
  nameFor(text: string, parameterCount: number): string | undefined {
    const name = this.named.get(text);
    if (name !== undefined || parameterCount === 0 || parameterCount > parameterLimit) return name;
    if (this.named.size >= namedLimit) return undefined;
    const used = (this.uses.get(text) ?? 0) + 1;
    this.uses.delete(text);
    if (used < usesBeforeNaming) {
      this.uses.set(text, used);
      if (this.uses.size > countedLimit) this.uses.delete(this.uses.keys().next().value as string);
      return undefined;
    }
    const fresh = `pagegrade_${this.nextName++}`;
    this.named.set(text, fresh);
    return fresh;
  }

  /** Forgets the name of a text whose prepared statement PostgreSQL no longer runs (see the header). */
  forget(text: string): void {
    this.named.delete(text);
  }

  /** How many texts are named (for tests). */
  get size(): number {
    return this.named.size;
  }
}

/** Whether PostgreSQL refused a prepared statement because its tables changed shape since it was prepared. */
function isStalePlan(error: unknown): boolean {
  return (error as { code?: unknown }).code === "0A000";
}

/** A pg pool whose clients run repeated statements prepared (see the header), for Kysely's PostgresDialect. */
export class PreparingPool implements PostgresPool {
  private readonly clients = new WeakMap<pg.PoolClient, PostgresPoolClient>();

  constructor(
    private readonly pool: pg.Pool,
    readonly names = new StatementNames(),
  ) {}

  async connect(): Promise<PostgresPoolClient> {
    const client = await this.pool.connect();
    let preparing = this.clients.get(client);
    if (!preparing) {
      preparing = this.preparing(client);
      this.clients.set(client, preparing);
    }
    return preparing;
  }

  end(): Promise<void> {
    return this.pool.end();
  }

  private preparing(client: pg.PoolClient): PostgresPoolClient {
    const names = this.names;
    return {
      async query<R>(text: string, values: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>> {
        const name = names.nameFor(text, values.length);
        const config = { ...(name === undefined ? {} : { name }), text, values: values as unknown[] };
        try {
          return (await client.query(config)) as unknown as PostgresQueryResult<R>;
        } catch (error) {
          if (name !== undefined && isStalePlan(error)) names.forget(text);
          throw error;
        }
      },
      release: () => client.release(),
    } as PostgresPoolClient;
  }
}
