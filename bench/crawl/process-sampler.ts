/**
 * Samples processes from /proc for the crawl benchmarks: each watched process and its descendants (a `npm start`
 * runs the service as npm's child; `npx pagegrade worker` runs the worker as npm's grandchild), their resident memory
 * (VmRSS) and the CPU time they used (utime + stime). Keeps, per process, the peak RSS before and after a mark
 * (the crawl's half-way point, so a reader sees whether memory stays flat), the peak of its subtree's summed RSS
 * (itself and its descendants read in the same sample: a worker with its analysis processes) and the last CPU
 * time read. `PostgresBackground` reads the database server's own processes the same way.
 * Linux only: it reads /proc.
 */
import { readdirSync, readFileSync } from "node:fs";

/** Clock ticks per second of /proc/<pid>/stat's times (USER_HZ, 100 on Linux). */
const ticksPerSecond = 100;

export interface SampledProcess {
  pid: number;
  /** The role given to the watched process; its descendants get it with their depth ("worker 1 › child"). */
  role: string;
  /** The command's first arguments, to tell processes apart. */
  command: string;
  peakRssMb: number;
  /** The peak before `markHalfway` was called. */
  peakRssFirstHalfMb: number;
  /** The peak of this process's RSS plus its descendants', summed within one sample. */
  peakTreeRssMb: number;
  cpuSeconds: number;
}

function read(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}

function childrenOf(pid: number): number[] {
  const tasks = (() => {
    try {
      return readdirSync(`/proc/${pid}/task`);
    } catch {
      return [];
    }
  })();
  const children: number[] = [];
  for (const task of tasks) {
    const text = read(`/proc/${pid}/task/${task}/children`);
    if (text) for (const child of text.trim().split(/\s+/).filter(Boolean)) children.push(Number(child));
  }
  return children;
}

function rssMb(pid: number): number | null {
  const status = read(`/proc/${pid}/status`);
  const match = status ? /^VmRSS:\s+(\d+) kB/m.exec(status) : null;
  return match ? Number(match[1]) / 1024 : null;
}

/** utime + stime of a process, in seconds (its own threads, not its waited-for children). */
export function cpuSecondsOf(pid: number): number | null {
  const stat = read(`/proc/${pid}/stat`);
  if (!stat) return null;
  // The command name (field 2) may hold spaces; the fields after its closing parenthesis are fixed.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
}

function commandOf(pid: number): string {
  const raw = read(`/proc/${pid}/cmdline`) ?? "";
  return raw
    .split("\0")
    .filter(Boolean)
    .map((part) => part.replace(/^.*\/(?=[^/]+$)/, ""))
    .slice(0, 4)
    .join(" ");
}

export class ProcessSampler {
  private readonly watched: Array<{ pid: number; role: string }> = [];
  private readonly seen = new Map<number, SampledProcess>();
  private halfway = false;
  private timer: NodeJS.Timeout | undefined;

  watch(pid: number, role: string): void {
    this.watched.push({ pid, role });
  }

  /** Samples every `everyMs` until `stop`. */
  start(everyMs = 200): void {
    this.timer = setInterval(() => this.sample(), everyMs);
  }

  markHalfway(): void {
    this.halfway = true;
  }

  sample(): void {
    for (const { pid, role } of this.watched) this.sampleTree(pid, role, 0);
  }

  /** Samples `pid` and its descendants; the RSS of them all, summed. */
  private sampleTree(pid: number, role: string, depth: number): number {
    const rss = rssMb(pid);
    if (rss === null) return 0;
    const cpu = cpuSecondsOf(pid) ?? 0;
    let entry = this.seen.get(pid);
    if (!entry) {
      entry = {
        pid,
        role: depth === 0 ? role : `${role} › child`,
        command: commandOf(pid),
        peakRssMb: 0,
        peakRssFirstHalfMb: 0,
        peakTreeRssMb: 0,
        cpuSeconds: 0,
      };
      this.seen.set(pid, entry);
    }
    // Read again while the process lives: a child seen between its fork and its exec shows its parent's
    // command, or none, and would be counted as the wrong part.
    entry.command = commandOf(pid) || entry.command;
    entry.peakRssMb = Math.max(entry.peakRssMb, rss);
    if (!this.halfway) entry.peakRssFirstHalfMb = entry.peakRssMb;
    entry.cpuSeconds = Math.max(entry.cpuSeconds, cpu);
    let treeRss = rss;
    for (const child of childrenOf(pid)) treeRss += this.sampleTree(child, role, depth + 1);
    entry.peakTreeRssMb = Math.max(entry.peakTreeRssMb, treeRss);
    return treeRss;
  }

  stop(): SampledProcess[] {
    clearInterval(this.timer);
    this.sample();
    return [...this.seen.values()];
  }
}

/** The PostgreSQL server's own processes (no client backend), by the titles it gives them. */
const backgroundTitle =
  /^postgres: (?:[^:]+: )?(checkpointer|background writer|walwriter|autovacuum (?:launcher|worker)|logical replication launcher|archiver|stats collector)/;

/**
 * CPU of a local PostgreSQL server's own processes (its postmaster, checkpointer, background writer, WAL writer,
 * autovacuum…), which write what every connection commits: sampled while a crawl runs (an autovacuum worker
 * lives for one table's work), counted from the first sample. A server shared with other work counts that
 * work's share too. None when the server is not on this machine.
 */
export class PostgresBackground {
  private readonly first = new Map<number, number>();
  private readonly last = new Map<number, number>();
  private sampled = false;

  sample(): void {
    let pids: string[];
    try {
      pids = readdirSync("/proc").filter((name) => /^\d+$/.test(name));
    } catch {
      return;
    }
    for (const name of pids) {
      const pid = Number(name);
      const command = (read(`/proc/${pid}/cmdline`) ?? "").replaceAll("\0", " ").trim();
      const postmaster = /\/postgres -D /.test(command);
      if (!postmaster && !backgroundTitle.test(command)) continue;
      const cpu = cpuSecondsOf(pid);
      if (cpu === null) continue;
      // A process first seen after the first sample (an autovacuum worker) counts from zero.
      if (!this.first.has(pid)) this.first.set(pid, this.sampled ? 0 : cpu);
      this.last.set(pid, cpu);
    }
    this.sampled = true;
  }

  /** CPU seconds used since the first sample. */
  cpuSeconds(): number {
    let seconds = 0;
    for (const [pid, cpu] of this.last) seconds += cpu - (this.first.get(pid) ?? cpu);
    return seconds;
  }
}
