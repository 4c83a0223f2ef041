/**
 * The processor time a synchronous piece of work takes, in milliseconds: what a time bound on parsing or
 * matching means. Counting this process's CPU rather than the clock keeps the figure from growing when other
 * processes share the machine's cores.
 */
export function cpuTimed<T>(work: () => T): { result: T; ms: number } {
  const before = process.cpuUsage();
  const result = work();
  const used = process.cpuUsage(before);
  return { result, ms: (used.user + used.system) / 1000 };
}

/** The processor time asynchronous work takes, when nothing else runs in this process meanwhile. */
export async function cpuTimedAsync<T>(work: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const before = process.cpuUsage();
  const result = await work();
  const used = process.cpuUsage(before);
  return { result, ms: (used.user + used.system) / 1000 };
}
