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

export async function startServiceProcess(
  env: Record<string, string>,
  options: { heapProbe?: boolean } = {},
): Promise<ServiceProcess> {
  const port = await freePort();
  const probe = options.heapProbe ? ["--expose-gc", "--import", "./test/helpers/heap-probe.ts"] : [];
  const child = spawn(process.execPath, ["--import", "tsx", ...probe, "src/main.ts"], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: "warn", ...env, PORT: String(port) },
    stdio: options.heapProbe ? ["ignore", "ignore", "pipe", "ipc"] : ["ignore", "ignore", "pipe"],
  });
  let errors = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    errors += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  for (let attempt = 0; ; attempt++) {
    if (child.exitCode !== null) throw new Error(`the service exited: ${errors}`);
    const ready = await fetch(`${url}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) return { child, url, exited };
    if (attempt > 600) throw new Error(`the service did not start: ${errors}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Starts `pagegrade worker` with these settings over the test's environment; stderr shows in the test's. */
export function startWorkerProcess(env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, [new URL("../../bin/pagegrade.js", import.meta.url).pathname, "worker"], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "ignore", "inherit"],
  });
}
