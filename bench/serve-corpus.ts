/**
 * Serves the whole corpus (both sets, 300 pages) from its own process (so the server does not share the benchmark's event loop) and
 * prints the base URL on stdout once it listens. Stops when its parent closes stdin.
 */
import { loadWholeCorpus, serveCorpus } from "../test/helpers/corpus.js";

const server = await serveCorpus(loadWholeCorpus());
process.stdout.write(`${server.url}\n`);
process.stdin.resume();
process.stdin.on("end", () => {
  void server.close().then(() => process.exit(0));
});
