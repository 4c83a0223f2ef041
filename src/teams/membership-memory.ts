/**
 * Team memberships remembered between requests, so a known member's request in a team's workspace (`team={id}`)
 * usually costs no query: (user, team) -> (role, team's reports version), what the access seam asks on every
 * such request (TeamStore.roleAndVersion). The same guarantees as the key-owner memory
 * (src/accounts/key-owner-memory.ts), one way per database:
 *
 * - SQLite: the store's change token (`Store.changeToken`), which changes with any write to the database, by this
 *   process or another. A membership is remembered with the token read before its lookup and answered while the
 *   token is unchanged. A request whose membership is being looked up already, the token unchanged since that
 *   lookup began, waits for its answer instead of querying again.
 * - PostgreSQL: the store's change feed (`Store.changeFeed`). A team's memberships are forgotten when a notice
 *   names the team (migration 040: a member added, removed or given another role, the reports version raised,
 *   the team deleted), and everything is forgotten when the connection is lost; while it is not listening,
 *   nothing is answered from memory. Before answering, a fence on the listening connection makes sure every
 *   notice of a change committed before the request has arrived. A membership whose team was named while its
 *   lookup ran is not remembered (the lookup may have read the old rows).
 *
 * Non-members are not remembered (they are asked again each time). Bounded: past `limit` entries the memory
 * starts afresh.
 */
import type { ChangeFeed } from "../store/change-feed.js";
import type { Store } from "../store/store.js";
import type { RoleAndVersion } from "./team-store.js";

/** A lookup about to read the database: `remember` keeps what it found, if it may. */
export interface MembershipLookup {
  /** The lookup's answer while it runs, which requests for the same membership may share (when it is safe). */
  share?(userId: number, teamId: number, found: Promise<RoleAndVersion | null>): void;
  remember(userId: number, teamId: number, member: RoleAndVersion): void;
  /** The lookup ended (found or not): always called, once. */
  end(): void;
}

export interface MembershipMemory {
  /** The remembered role and version of this user in this team, if certainly current. */
  recall(userId: number, teamId: number): RoleAndVersion | undefined | Promise<RoleAndVersion | undefined>;
  /** Called before the lookup query; undefined when nothing the lookup finds may be remembered. */
  lookup(): MembershipLookup | undefined;
}

const defaultLimit = 10_000;

/** The memory that fits the store, or none. */
export function membershipMemoryFor(store: Store, limit = defaultLimit): MembershipMemory | null {
  if (store.changeToken) return new TokenMembershipMemory(store, limit);
  if (store.changeFeed) return new NotifiedMembershipMemory(store.changeFeed, limit);
  return null;
}

/**
 * The user's role and the team's version through the memory: from it when it knows, else from `load` (the
 * query), remembered when it may be.
 */
export async function throughMemory(
  memory: MembershipMemory | null,
  userId: number,
  teamId: number,
  load: () => Promise<RoleAndVersion | null>,
): Promise<RoleAndVersion | null> {
  const recalled = memory?.recall(userId, teamId);
  const remembered = recalled instanceof Promise ? await recalled : recalled;
  if (remembered) return remembered;
  const lookup = memory?.lookup();
  try {
    const found = load();
    lookup?.share?.(userId, teamId, found);
    const member = await found;
    if (member) lookup?.remember(userId, teamId, member);
    return member;
  } finally {
    lookup?.end();
  }
}

const keyOf = (userId: number, teamId: number) => `${userId} ${teamId}`;

class TokenMembershipMemory implements MembershipMemory {
  private readonly members = new Map<string, { token: string; member: RoleAndVersion }>();
  /** Lookups running, by key, with the token read before each began. */
  private readonly running = new Map<string, { token: string; found: Promise<RoleAndVersion | null> }>();

  constructor(
    private readonly store: Store,
    private readonly limit: number,
  ) {}

  recall(userId: number, teamId: number): RoleAndVersion | undefined | Promise<RoleAndVersion | undefined> {
    const token = this.store.changeToken?.();
    if (token === undefined) return undefined;
    const key = keyOf(userId, teamId);
    const remembered = this.members.get(key);
    if (remembered?.token === token) return remembered.member;
    const running = this.running.get(key);
    if (running?.token !== token) return undefined;
    // Nothing changed since that lookup began: its answer is current. None found (or a failure): look up anew.
    return running.found.then(
      (member) => member ?? undefined,
      () => undefined,
    );
  }

  lookup(): MembershipLookup | undefined {
    // Read before the query: a change landing meanwhile leaves the entry under an older token (a miss later).
    const token = this.store.changeToken?.();
    if (token === undefined) return undefined;
    let shared: { key: string; found: Promise<RoleAndVersion | null> } | undefined;
    return {
      share: (userId, teamId, found) => {
        const key = keyOf(userId, teamId);
        shared = { key, found };
        if (this.running.size >= this.limit) this.running.clear();
        this.running.set(key, { token, found });
      },
      remember: (userId, teamId, member) => {
        if (this.members.size >= this.limit) this.members.clear();
        this.members.set(keyOf(userId, teamId), { token, member });
      },
      end: () => {
        if (shared && this.running.get(shared.key)?.found === shared.found) this.running.delete(shared.key);
      },
    };
  }
}

interface PendingLookup {
  /** Teams named by a notice while the lookup ran. */
  changed: Set<number>;
}

class NotifiedMembershipMemory implements MembershipMemory {
  private readonly members = new Map<string, RoleAndVersion>();
  private readonly keysByTeam = new Map<number, Set<string>>();
  private readonly pending = new Set<PendingLookup>();

  constructor(
    private readonly feed: ChangeFeed,
    private readonly limit: number,
  ) {
    feed.subscribe({
      // A user's own changes (017's notices) change no membership: removing one from a team notifies the team.
      changed: () => {},
      teamChanged: (teamId) => {
        this.forgetTeam(teamId);
        for (const lookup of this.pending) lookup.changed.add(teamId);
      },
      reset: () => this.forgetAll(),
    });
  }

  async recall(userId: number, teamId: number): Promise<RoleAndVersion | undefined> {
    if (this.feed.generation() === undefined) return undefined;
    const key = keyOf(userId, teamId);
    const member = this.members.get(key);
    if (!member) return undefined;
    // A notice of a change committed before this request may still be on its way: wait until it has arrived.
    if (!(await this.feed.fence())) return undefined;
    return this.members.get(key) === member ? member : undefined;
  }

  lookup(): MembershipLookup | undefined {
    const generation = this.feed.generation();
    if (generation === undefined) return undefined;
    const pending: PendingLookup = { changed: new Set() };
    this.pending.add(pending);
    return {
      remember: (userId, teamId, member) => {
        if (this.feed.generation() !== generation || pending.changed.has(teamId)) return;
        if (this.members.size >= this.limit) this.forgetAll();
        const key = keyOf(userId, teamId);
        this.members.set(key, member);
        let keys = this.keysByTeam.get(teamId);
        if (!keys) {
          keys = new Set();
          this.keysByTeam.set(teamId, keys);
        }
        keys.add(key);
      },
      end: () => {
        this.pending.delete(pending);
      },
    };
  }

  private forgetTeam(teamId: number): void {
    const keys = this.keysByTeam.get(teamId);
    if (!keys) return;
    for (const key of keys) this.members.delete(key);
    this.keysByTeam.delete(teamId);
  }

  private forgetAll(): void {
    this.members.clear();
    this.keysByTeam.clear();
  }
}
