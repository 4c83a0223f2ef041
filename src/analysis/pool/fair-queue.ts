/**
 * A queue that takes turns between owners: each owner's entries come out in the order they went in, and the
 * owners are served round-robin, so one owner's many entries do not hold back another owner's one.
 */
export class FairQueue<T> {
  private readonly byOwner = new Map<string, T[]>();
  /** Owners with entries, in turn order; the next to be served first. */
  private readonly turns: string[] = [];
  private count = 0;

  get size(): number {
    return this.count;
  }

  push(owner: string, entry: T): void {
    const entries = this.byOwner.get(owner);
    if (entries) entries.push(entry);
    else {
      this.byOwner.set(owner, [entry]);
      this.turns.push(owner);
    }
    this.count++;
  }

  /** The next owner's oldest entry, that owner then going to the end of the turns; undefined when empty. */
  shift(): T | undefined {
    const owner = this.turns.shift();
    if (owner === undefined) return undefined;
    const entries = this.byOwner.get(owner) as T[];
    const entry = entries.shift() as T;
    if (entries.length > 0) this.turns.push(owner);
    else this.byOwner.delete(owner);
    this.count--;
    return entry;
  }

  /** Removes an entry still waiting (its caller gave up); false when it is not queued. */
  remove(owner: string, entry: T): boolean {
    const entries = this.byOwner.get(owner);
    const index = entries?.indexOf(entry) ?? -1;
    if (!entries || index < 0) return false;
    entries.splice(index, 1);
    if (entries.length === 0) {
      this.byOwner.delete(owner);
      this.turns.splice(this.turns.indexOf(owner), 1);
    }
    this.count--;
    return true;
  }
}
