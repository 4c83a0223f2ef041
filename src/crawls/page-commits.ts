/**
 * The commits of one part's analysed pages still on their way: the part goes on to its next pages meanwhile,
 * waits for them all before it stops, and stops with the error of the first that failed at its next page, as
 * if it had waited.
 */
export class PageCommits {
  private readonly storing = new Set<Promise<void>>();
  private failure: { error: unknown } | undefined;

  /** Follows one page's commit. */
  add(commit: Promise<void>): void {
    const settled: Promise<void> = commit
      .catch((error: unknown) => {
        this.failure ??= { error };
      })
      .finally(() => this.storing.delete(settled));
    this.storing.add(settled);
  }

  /** Throws the error of the first commit that failed, if one did. */
  throwIfFailed(): void {
    if (this.failure) throw this.failure.error;
  }

  /** Settles once every commit on its way now is done, failed or not. */
  async settled(): Promise<void> {
    await Promise.all(this.storing);
  }
}
