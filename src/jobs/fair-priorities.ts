/**
 * Fairness between users on BullMQ. Open-source BullMQ has no per-group rotation (groups are BullMQ Pro's), so
 * the turn is given at enqueue as BullMQ's own job priority: a job's priority is 1 + the number of its user's
 * unfinished jobs of the same name (waiting, delayed or running). Users' first jobs have priority 1, their
 * second 2, …, and BullMQ runs lower priorities first (first in, first out among equals), so users with work
 * take turns instead of queueing behind each other's backlogs. The unfinished jobs are a sorted set per name and
 * user, `<prefix>queue:fair:<name>:<user>` (job ids scored by enqueue time), which a job leaves when it ends;
 * entries older than `forgetAfterMs` (a job lost without ending, say) are dropped at the next enqueue, so a set
 * holds at most a user's current backlog.
 */
import type { Redis } from "ioredis";

/** BullMQ's largest priority (2^21 − 1). */
const maxPriority = 2_097_151;
/** How long a job counts as unfinished at most: as long as BullMQ keeps a failed job. */
const forgetAfterMs = 7 * 24 * 3600_000;

export class FairPriorities {
  constructor(
    private readonly redis: () => Redis,
    private readonly prefix: string,
  ) {}

  private key(name: string, userId: number | undefined): string {
    return `${this.prefix}:fair:${name}:${userId ?? 0}`;
  }

  /** The priority a new job of `name` for `userId` gets: after every unfinished job of that user. */
  async next(name: string, userId: number | undefined): Promise<number> {
    const key = this.key(name, userId);
    const [, unfinished] = (await this.redis()
      .multi()
      .zremrangebyscore(key, "-inf", Date.now() - forgetAfterMs)
      .zcard(key)
      .exec()) ?? [null, [null, 0]];
    return Math.min(maxPriority, 1 + Number(unfinished?.[1] ?? 0));
  }

  /** Counts the job as unfinished, until `ended`. */
  async added(name: string, userId: number | undefined, jobId: string): Promise<void> {
    const key = this.key(name, userId);
    await this.redis().multi().zadd(key, Date.now(), jobId).pexpire(key, forgetAfterMs).exec();
  }

  async ended(name: string, userId: number | undefined, jobId: string): Promise<void> {
    await this.redis().zrem(this.key(name, userId), jobId);
  }
}
