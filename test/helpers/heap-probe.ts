/**
 * Preloaded into a service process by `startServiceProcess({ heapProbe: true })` (with `--expose-gc`): on the
 * IPC message "heap" it runs a full garbage collection and answers with the memory still in use. Only tests load
 * it; the service itself has no such hook.
 */
const collect = (globalThis as { gc?: () => void }).gc;

process.on("message", (message) => {
  if (message !== "heap" || !collect || !process.send) return;
  collect();
  const usage = process.memoryUsage();
  process.send({ heapUsed: usage.heapUsed, external: usage.external, rss: usage.rss });
});
