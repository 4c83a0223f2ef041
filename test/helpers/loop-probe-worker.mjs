/**
 * The probing loop of loop-probe.ts, in a worker thread of its own: `GET /healthz` every `intervalMs`, one at a
 * time on one kept-alive connection, each answer timed. Plain JavaScript with node:http, so the thread needs no
 * loader. A first request, not counted, opens the connection and warms the thread up (its first answer on a
 * busy machine took half a second); then it posts "ready" and counts. It stops when told to (a message), after
 * the request in flight, and posts its answers and failures.
 */
import { Agent, get } from "node:http";
import { parentPort, workerData } from "node:worker_threads";

const { url, intervalMs } = workerData;
const agent = new Agent({ keepAlive: true, maxSockets: 1 });
const answers = [];
let failures = 0;
let running = true;
parentPort.once("message", () => {
  running = false;
});

/** One request; resolves whether it was answered 200. */
function probe() {
  return new Promise((resolve) => {
    const request = get(url, { agent }, (response) => {
      response.resume();
      response.on("end", () => resolve(response.statusCode === 200));
      response.on("error", () => resolve(false));
    });
    request.on("error", () => resolve(false));
  });
}

await probe();
parentPort.postMessage("ready");
const started = performance.now();
while (running) {
  const sent = performance.now();
  if (!(await probe())) failures++;
  const answered = performance.now();
  answers.push({ atMs: Math.round(sent - started), ms: answered - sent });
  const wait = intervalMs - (answered - sent);
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
}
agent.destroy();
parentPort.postMessage({ answers, failures });
