/**
 * A bound on the analyses one process runs at once. Past it, callers are refused at once (503 with
 * Retry-After) instead of queuing without bound: a queue would only turn overload into timeouts.
 */
import { CapacityExceeded } from "../errors.js";

export class AnalysisCapacity {
  private running = 0;

  constructor(private readonly limit: number) {}

  /** Runs the task in a slot, or throws CapacityExceeded when none is free. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) throw new CapacityExceeded(5);
    this.running++;
    try {
      return await task();
    } finally {
      this.running--;
    }
  }

  get inUse(): number {
    return this.running;
  }
}
