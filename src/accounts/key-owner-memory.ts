/**
 * Key owners remembered between requests, so a known API key usually costs no query. Two ways to know that a
 * remembered owner (account, key id, reports version) is still current, one per database:
 *
 * - SQLite: the store's change token (`Store.changeToken`), which changes with any write to the database, by
 *   this process or another. An owner is remembered with the token read before its lookup and answered while
 *   the token is unchanged. A request whose key is being looked up already, the token unchanged since that lookup
 *   began, waits for its answer instead of querying again (nothing changed in between, so the answer is as current
 *   as its own would be): after any write (the request counters' flush, every 100 ms under load) the requests in
 *   flight cost one query, not one each.
 * - PostgreSQL: the store's change feed (`Store.changeFeed`, a LISTENing connection). An owner is forgotten when a
 *   notice names its user (a report, a key or the account changed), and everything is forgotten when the
 *   connection is lost; while it is not listening, nothing is answered from memory. Before answering, a fence on
 *   the listening connection makes sure every notice of a change committed before the request has arrived. An
 *   owner whose user was named while its lookup ran is not remembered (the lookup may have read the old row).
 *
 * Bounded: past `limit` keys the memory starts afresh.
 */
import type { ChangeFeed } from "../store/change-feed.js";
import type { Store } from "../store/store.js";
import type { KeyOwner } from "./account.js";

/** A lookup about to read the database: `remember` keeps what it found, if it may. */
export interface KeyOwnerLookup {
  /** The lookup's answer while it runs, which requests for the same key may share (when it is safe). */
  share?(digest: string, found: Promise<KeyOwner | null>): void;
  remember(digest: string, owner: KeyOwner): void;
  /** The lookup ended (found or not): always called, once. */
  end(): void;
}

export interface KeyOwnerMemory {
  /** The remembered owner of the key with this digest, if it is certainly current. */
  recall(digest: string): KeyOwner | undefined | Promise<KeyOwner | undefined>;
  /** Called before the lookup query; undefined when nothing the lookup finds may be remembered. */
  lookup(): KeyOwnerLookup | undefined;
}

const defaultLimit = 10_000;

/** The memory that fits the store, or none. */
export function keyOwnerMemoryFor(store: Store, limit = defaultLimit): KeyOwnerMemory | null {
  if (store.changeToken) return new TokenKeyOwnerMemory(store, limit);
  if (store.changeFeed) return new NotifiedKeyOwnerMemory(store.changeFeed, limit);
  return null;
}

class TokenKeyOwnerMemory implements KeyOwnerMemory {
  private readonly owners = new Map<string, { token: string; owner: KeyOwner }>();
  /** Lookups running, by digest, with the token read before each began. */
  private readonly running = new Map<string, { token: string; found: Promise<KeyOwner | null> }>();

  constructor(
    private readonly store: Store,
    private readonly limit: number,
  ) {}

  recall(digest: string): KeyOwner | undefined | Promise<KeyOwner | undefined> {
    const token = this.store.changeToken?.();
    if (token === undefined) return undefined;
    const remembered = this.owners.get(digest);
    if (remembered?.token === token) return remembered.owner;
    const running = this.running.get(digest);
    if (running?.token !== token) return undefined;
    // Nothing changed since that lookup began: its answer is current. None found (or a failure): look up anew.
    return running.found.then(
      (owner) => owner ?? undefined,
      () => undefined,
    );
  }

  lookup(): KeyOwnerLookup | undefined {
    // Read before the query: a change landing meanwhile leaves the entry under an older token (a miss later).
    const token = this.store.changeToken?.();
    if (token === undefined) return undefined;
    let shared: { digest: string; found: Promise<KeyOwner | null> } | undefined;
    return {
      share: (digest, found) => {
        shared = { digest, found };
        if (this.running.size >= this.limit) this.running.clear();
        this.running.set(digest, { token, found });
      },
      remember: (digest, owner) => {
        if (this.owners.size >= this.limit) this.owners.clear();
        this.owners.set(digest, { token, owner });
      },
      end: () => {
        if (shared && this.running.get(shared.digest)?.found === shared.found)
          this.running.delete(shared.digest);
      },
    };
  }
}

interface PendingLookup {
  /** Users named by a notice while the lookup ran. */
  changed: Set<number>;
}

class NotifiedKeyOwnerMemory implements KeyOwnerMemory {
  private readonly owners = new Map<string, KeyOwner>();
  private readonly digestsByUser = new Map<number, Set<string>>();
  private readonly pending = new Set<PendingLookup>();

  constructor(
    private readonly feed: ChangeFeed,
    private readonly limit: number,
  ) {
    feed.subscribe({
      changed: (userId) => {
        this.forgetUser(userId);
        for (const lookup of this.pending) lookup.changed.add(userId);
      },
      reset: () => this.forgetAll(),
    });
  }

  async recall(digest: string): Promise<KeyOwner | undefined> {
    if (this.feed.generation() === undefined) return undefined;
    const owner = this.owners.get(digest);
    if (!owner) return undefined;
    // A notice of a change committed before this request may still be on its way: wait until it has arrived.
    if (!(await this.feed.fence())) return undefined;
    return this.owners.get(digest) === owner ? owner : undefined;
  }

  lookup(): KeyOwnerLookup | undefined {
    const generation = this.feed.generation();
    if (generation === undefined) return undefined;
    const pending: PendingLookup = { changed: new Set() };
    this.pending.add(pending);
    return {
      remember: (digest, owner) => {
        if (this.feed.generation() !== generation || pending.changed.has(owner.account.id)) return;
        if (this.owners.size >= this.limit) this.forgetAll();
        this.owners.set(digest, owner);
        let digests = this.digestsByUser.get(owner.account.id);
        if (!digests) {
          digests = new Set();
          this.digestsByUser.set(owner.account.id, digests);
        }
        digests.add(digest);
      },
      end: () => {
        this.pending.delete(pending);
      },
    };
  }

  private forgetUser(userId: number): void {
    const digests = this.digestsByUser.get(userId);
    if (!digests) return;
    for (const digest of digests) this.owners.delete(digest);
    this.digestsByUser.delete(userId);
  }

  private forgetAll(): void {
    this.owners.clear();
    this.digestsByUser.clear();
  }
}
