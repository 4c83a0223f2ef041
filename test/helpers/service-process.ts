/**
 * The service as its own process, started the way `npm start` does (`src/main.ts` through tsx), on a free
 * port, and polled on /healthz until it answers.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { type AddressInfo, createServer } from "node:net";

const root = new URL("../..", import.meta.url).pathname;

export interface ServiceProcess {
  child: ChildProcess;
  url: string;
  /** Resolves with the exit code when the process ends. */
  exited: Promise<number | null>;
  /** What the process logged on stdout so far (with `logs`; empty otherwise). */
  logs(): string;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface HeapUsage {
  heapUsed: number;
  external: number;
  rss: number;
}

/** The memory a process started with `heapProbe` still holds after a full garbage collection. */
export function measureHeap(child: ChildProcess): Promise<HeapUsage> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("the heap probe did not answer")), 10_000);
    child.once("message", (usage) => {
      clearTimeout(timer);
      resolve(usage as HeapUsage);
    });
    child.send("heap");
  });
}

/**
 * Starts the service on a free port. The port is free when picked but only taken when the service has started,
 * seconds later; another process's connection may take it meanwhile (test files run side by side, and every
 * outgoing connection takes a port of the same range), so a start that finds the port in use starts again on
 * another, up to three times.
 */
export async function startServiceProcess(
  env: Record<string, string>,
  options: { heapProbe?: boolean; logs?: boolean } = {},
): Promise<ServiceProcess> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startServiceProcessOnce(env, options);
    } catch (error) {
      if (attempt >= 3 || !(error instanceof PortTaken)) throw error;
    }
  }
}

/** The service stopped at start because its port was taken meanwhile. */
class PortTaken extends Error {}

async function startServiceProcessOnce(
  env: Record<string, string>,
  options: { heapProbe?: boolean; logs?: boolean },
): Promise<ServiceProcess> {
  const port = await freePort();
  const probe = options.heapProbe ? ["--expose-gc", "--import", "./test/helpers/heap-probe.ts"] : [];
  const stdout = options.logs ? "pipe" : "ignore";
  const child = spawn(process.execPath, ["--import", "tsx", ...probe, "src/main.ts"], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: "warn", ...env, PORT: String(port) },
    stdio: options.heapProbe ? ["ignore", stdout, "pipe", "ipc"] : ["ignore", stdout, "pipe"],
  });
  let logged = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    logged += chunk.toString();
  });
  const logs = () => logged;
  let errors = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    errors += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const closed = new Promise((resolve) => child.once("close", resolve));
  const url = `http://127.0.0.1:${port}`;
  // Starting through tsx takes seconds, more on a machine busy with other work.
  const startBy = performance.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) {
      await closed; // its last words on stderr
      const message = `the service exited: ${errors}`;
      throw errors.includes("EADDRINUSE") ? new PortTaken(message) : new Error(message);
    }
    const ready = await fetch(`${url}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) return { child, url, exited, logs };
    if (performance.now() > startBy) throw new Error(`the service did not start: ${errors}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Starts `pagegrade worker` with these settings over the test's environment; stderr shows in the test's. It is
 * started as bin/pagegrade starts it (its memory settings, one process, which is what the fault tests SIGKILL),
 * with this test's Node.js (the Node.js 22 and 24 lanes).
 */
export function startWorkerProcess(env: Record<string, string>): ChildProcess {
  const script = new URL("../../bin/pagegrade.js", import.meta.url).pathname;
  return spawn(process.execPath, ["--max-semi-space-size=8", script, "worker"], {
    env: { ...process.env, MALLOC_ARENA_MAX: "2", ...env },
    stdio: ["ignore", "ignore", "inherit"],
  });
}
