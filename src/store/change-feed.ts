/**
 * PostgreSQL's change notices for this process: one dedicated connection that LISTENs on migration 017's channel
 * and reports the users whose reports, keys or account changed (017's '<schema> <user id>') and the teams whose
 * members or reports version changed, or which were deleted (040's '<schema> team <team id>'), in this schema,
 * whichever process changed them.
 * What is remembered from the database may be trusted only while the feed is listening, so the feed has a
 * generation: it changes whenever the connection is lost (an error, the server ending it, a fence that takes
 * too long), and subscribers are told to forget everything then. It reconnects by itself, with a growing pause.
 *
 * A notice travels asynchronously: a change committed just before a request may not have been delivered yet.
 * `fence()` closes that gap: an empty query on the listening connection, answered after every notice of a
 * transaction committed before it was sent (PostgreSQL 14 and later deliver pending notices before
 * ReadyForQuery). Concurrent callers share round trips: one in flight at most, and the next one, sent once it
 * is answered and the event loop's turn is over, for everyone who came after the one in flight was sent.
 */
import pg from "pg";
import { changeChannel } from "./change-channel.js";

export interface ChangeFeedOptions {
  connectionString: string;
  /** The schema whose notices count (the store's first search_path entry); default: the connection's. */
  schema?: string;
  /** A fence not answered within this long ends the connection (it is then presumed dead). */
  fenceTimeoutMs?: number;
}

export interface ChangeSubscriber {
  /** Something about this user changed. */
  changed(userId: number): void;
  /** A member of this team, or its reports version, changed, or the team was deleted (migration 040). */
  teamChanged?(teamId: number): void;
  /** The connection was lost: every notice since may be missing. */
  reset(): void;
}

const reconnectDelaysMs = [50, 200, 1000, 5000];

export class ChangeFeed {
  private client: pg.Client | null = null;
  private connecting = false;
  private closed = false;
  private failures = 0;
  private listeningGeneration: number | undefined;
  private generationCount = 0;
  private schemaName: string | undefined;
  private readonly subscribers = new Set<ChangeSubscriber>();
  /** A fence not sent yet, which callers join. */
  private next: Promise<boolean> | undefined;
  /** The fence sent and not answered yet. */
  private inFlight: Promise<boolean> | undefined;
  private retry: NodeJS.Timeout | undefined;

  constructor(private readonly options: ChangeFeedOptions) {}

  subscribe(subscriber: ChangeSubscriber): void {
    this.subscribers.add(subscriber);
  }

  /**
   * The current generation while the feed is listening, undefined otherwise (connecting, reconnecting, closed).
   * The first call starts the connection.
   */
  generation(): number | undefined {
    if (this.client === null && !this.connecting && !this.closed && this.retry === undefined)
      void this.connect();
    return this.listeningGeneration;
  }

  /**
   * Resolves true once every notice committed before the call has been delivered, on a connection that has
   * been listening, in this generation, throughout; false otherwise.
   */
  fence(): Promise<boolean> {
    this.next ??= this.scheduleFence();
    return this.next;
  }

  /**
   * The next fence goes out once the one in flight has been answered and this turn of the event loop is over,
   * so every request read in the same turn shares it; until it goes out anyone may still join it.
   */
  private async scheduleFence(): Promise<boolean> {
    await Promise.all([this.inFlight, new Promise((resolve) => setImmediate(resolve))]);
    this.next = undefined;
    const trip = this.roundTrip();
    this.inFlight = trip;
    const ok = await trip;
    if (this.inFlight === trip) this.inFlight = undefined;
    return ok;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    const client = this.client;
    this.drop();
    await client?.end().catch(() => {});
  }

  private roundTrip(): Promise<boolean> {
    const generation = this.listeningGeneration;
    const client = this.client;
    if (generation === undefined || client === null) return Promise.resolve(false);
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => {
        // Presumed dead: a connection that cannot answer cannot be trusted to deliver notices either.
        if (this.client === client) this.lost(client);
        resolve(false);
      }, this.options.fenceTimeoutMs ?? 2000);
    });
    const answered = client.query("").then(
      () => this.listeningGeneration === generation,
      () => false,
    );
    return Promise.race([answered, timedOut]).then((ok) => {
      clearTimeout(timer);
      return ok && this.listeningGeneration === generation;
    });
  }

  private async connect(): Promise<void> {
    this.connecting = true;
    const client = new pg.Client({
      connectionString: this.options.connectionString,
      keepAlive: true,
      // So an operator (or a test) can tell it apart in pg_stat_activity.
      application_name: `pagegrade change feed${this.options.schema ? ` ${this.options.schema}` : ""}`,
      ...(this.options.schema ? { options: `-c search_path=${this.options.schema},public` } : {}),
    });
    client.on("error", () => this.lost(client));
    client.on("end", () => this.lost(client));
    client.on("notification", (message) => this.deliver(message));
    this.client = client;
    try {
      await client.connect();
      const { rows } = await client.query<{ schema: string }>("select current_schema() as schema");
      this.schemaName = rows[0]?.schema;
      await client.query(`listen ${changeChannel}`);
      if (this.client !== client) return;
      this.failures = 0;
      this.generationCount += 1;
      this.listeningGeneration = this.generationCount;
    } catch {
      this.lost(client);
    } finally {
      this.connecting = false;
    }
  }

  private deliver(message: pg.Notification): void {
    if (message.channel !== changeChannel || !message.payload) return;
    const space = message.payload.lastIndexOf(" ");
    const about = message.payload.slice(0, space);
    const id = Number(message.payload.slice(space + 1));
    if (about === this.schemaName) for (const subscriber of this.subscribers) subscriber.changed(id);
    else if (about === `${this.schemaName} team`)
      for (const subscriber of this.subscribers) subscriber.teamChanged?.(id);
  }

  /** The connection is gone (or presumed so): forget, and try again after a pause unless closed. */
  private lost(client: pg.Client): void {
    if (this.client !== client) return;
    this.drop();
    client.end().catch(() => {});
    if (this.closed) return;
    const delay = reconnectDelaysMs[Math.min(this.failures, reconnectDelaysMs.length - 1)] as number;
    this.failures += 1;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      if (!this.closed) void this.connect();
    }, delay);
    this.retry.unref();
  }

  private drop(): void {
    this.client = null;
    this.listeningGeneration = undefined;
    this.generationCount += 1;
    for (const subscriber of this.subscribers) subscriber.reset();
  }
}
