/**
 * `npm run bench:cli-start`: how long the `pagegrade` command takes to start, as a ratio against the bare
 * loader measured in the same run. Each round runs, as separate processes one after the other:
 *
 * - the baseline: a bare `node` that runs an empty module;
 * - `node` registering tsx's loader the way `bin/pagegrade.js` does when dist/ is stale, importing nothing else;
 * - `pagegrade --help` and `pagegrade help` (bin/pagegrade.js prints the usage before any loader or command
 *   module; issue "Fast where people wait" asks ≤ 0.25 s);
 * - `pagegrade analyze <url> --json` of one small page on a local server (the engine, one analysis; from dist/
 *   when `npm install` compiled it and it is current).
 *
 * It prints the median wall time of each over the rounds (BENCH_ROUNDS, default 9) and each command's ratio to
 * the baseline; what the command adds is the difference.
 */
import { spawn } from "node:child_process";
// @ts-expect-error: plain JavaScript without declarations, run by bin/pagegrade.js
import { compiledIsCurrent } from "../bin/compiled.js";
import { html, startServer } from "../test/helpers/local-server.js";

const rounds = Number(process.env.BENCH_ROUNDS ?? 9);
const root = new URL("..", import.meta.url).pathname;
const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A small page to analyse</title>
<meta name="description" content="One local page, analysed by the command line in each round of the benchmark.">
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body><h1>A small page</h1><p>Some text, <a href="/other">a link</a> and an <img src="/a.png" alt="image">.</p></body></html>`;

const site = await startServer({ "/": html(page) });
const env = { ...process.env, PAGEGRADE_ALLOW_PRIVATE_NETWORKS: "1", NO_COLOR: "1" };

/** Runs one process to its end (asynchronously: the page's server lives in this process). */
async function run(args: string[], expectStatus: number): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd: root, env, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const status = await new Promise<number | null>((resolve) => child.on("close", resolve));
  const elapsed = performance.now() - started;
  if (status !== expectStatus) throw new Error(`${args.join(" ")} exited ${status}: ${stderr.slice(0, 500)}`);
  return elapsed;
}

const commands: Array<{ name: string; args: string[]; status: number }> = [
  { name: "baseline: bare node", args: ["--input-type=module", "-e", ""], status: 0 },
  {
    name: "node + tsx loader",
    args: ["--input-type=module", "-e", 'import { register } from "tsx/esm/api"; register();'],
    status: 0,
  },
  { name: "pagegrade --help", args: ["bin/pagegrade.js", "--help"], status: 0 },
  { name: "pagegrade help", args: ["bin/pagegrade.js", "help"], status: 0 },
  {
    name: "pagegrade analyze (one page)",
    args: ["bin/pagegrade.js", "analyze", `${site.url}/`, "--json"],
    status: 0,
  },
];

const times = commands.map(() => [] as number[]);
try {
  // One warm-up round (the file cache), then rounds that interleave the commands so load affects all alike.
  for (const command of commands) await run(command.args, command.status);
  for (let round = 0; round < rounds; round++) {
    for (const [index, command] of commands.entries())
      times[index]?.push(await run(command.args, command.status));
  }
} finally {
  await site.close();
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};
const baseline = median(times[0] ?? []);
const running = compiledIsCurrent()
  ? "dist/ current: the compiled JavaScript runs"
  : "dist/ stale or absent: the sources run through tsx";
console.log(`pagegrade start-up, median of ${rounds} rounds (Node.js ${process.versions.node}; ${running})`);
commands.forEach((command, index) => {
  const ms = median(times[index] ?? []);
  console.log(
    `  ${command.name.padEnd(32)} ${ms.toFixed(0).padStart(6)} ms  ${(ms / baseline).toFixed(2)}× baseline  (+${(ms - baseline).toFixed(0)} ms)`,
  );
});
const help = median(times[commands.findIndex((command) => command.name === "pagegrade --help")] ?? []);
console.log(`  --help in ${help.toFixed(0)} ms   target <= 250 ms: ${help <= 250 ? "ok" : "MISSED"}`);
