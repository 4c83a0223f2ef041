/**
 * CPU seconds of a rendered page by part, for bench:render: the process CPU (user + system) of every Chromium
 * process under this one, read from /proc/<pid>/stat, plus this Node process's own (process.cpuUsage: the
 * guard proxy, Playwright's protocol traffic, the trace's processing). CPU, not wall time, because the machine
 * is shared and its load moves wall-clock figures; a part's CPU is what it costs whoever else is running.
 * A Chromium process that ends (a page's renderer, when its context closes) keeps the CPU last read of it.
 */
import { readdirSync, readFileSync } from "node:fs";
import type { RenderPart } from "../src/analysis/render/render-page.js";

/** Clock ticks per second of /proc/<pid>/stat's utime and stime (USER_HZ, 100 on Linux). */
const ticksPerSecond = 100;

export interface CpuSample {
  chromium: number;
  node: number;
  /** performance.now() in seconds, for the part's wall time beside its CPU. */
  wall: number;
}

/** Reads the CPU seconds so far of Chromium's processes (those still running and those seen before) and Node's. */
export class CpuMeter {
  private readonly lastSeen = new Map<number, number>();

  sample(): CpuSample {
    for (const { pid, fields } of chromiumProcesses()) {
      // utime and stime, the 14th and 15th fields of the line.
      this.lastSeen.set(pid, Number(fields[11]) + Number(fields[12]));
    }
    let chromium = 0;
    for (const count of this.lastSeen.values()) chromium += count;
    const own = process.cpuUsage();
    return {
      chromium: chromium / ticksPerSecond,
      node: (own.user + own.system) / 1e6,
      wall: performance.now() / 1000,
    };
  }
}

/**
 * Every Chromium process under this one, with the fields of its /proc/<pid>/stat after the command's name
 * ("state ppid pgrp …": the name may hold spaces and parentheses, so they are read after the last ")").
 */
export function chromiumProcesses(): Array<{ pid: number; fields: string[] }> {
  const parents = new Map<number, number>();
  const chromium: Array<{ pid: number; fields: string[] }> = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const close = stat.lastIndexOf(")");
      const fields = stat.slice(close + 2).split(" ");
      parents.set(Number(entry), Number(fields[1]));
      if (stat.slice(stat.indexOf("(") + 1, close).startsWith("chrom"))
        chromium.push({ pid: Number(entry), fields });
    } catch {
      // The process ended while we looked.
    }
  }
  return chromium.filter(({ pid }) => descendsFrom(pid, parents));
}

function descendsFrom(pid: number, parents: Map<number, number>): boolean {
  for (let current = parents.get(pid); current !== undefined && current > 1; current = parents.get(current)) {
    if (current === process.pid) return true;
  }
  return false;
}

/** CPU and wall seconds per part of the renders measured, summed over pages; `pages` counts them. */
export class PartCpu {
  readonly chromium = new Map<RenderPart, number>();
  readonly node = new Map<RenderPart, number>();
  readonly wall = new Map<RenderPart, number>();
  pages = 0;
  private last: CpuSample | null = null;

  constructor(private readonly meter = new CpuMeter()) {}

  /** Marks the start of a render to measure (before BrowserPool.render). */
  start(): void {
    this.last = this.meter.sample();
    this.pages++;
  }

  /** After that render: the pool's renders until the next start() are not counted. */
  stop(): void {
    this.last = null;
  }

  /** The pool's onPart: charges the CPU since the last mark to the part that just ended. */
  readonly ended = (part: RenderPart): void => {
    if (!this.last) return;
    const now = this.meter.sample();
    this.chromium.set(part, (this.chromium.get(part) ?? 0) + now.chromium - this.last.chromium);
    this.node.set(part, (this.node.get(part) ?? 0) + now.node - this.last.node);
    this.wall.set(part, (this.wall.get(part) ?? 0) + now.wall - this.last.wall);
    this.last = now;
  };

  /** Per page, one line per part: its CPU seconds in Chromium and in Node, and its wall seconds. */
  table(): string {
    const rows: string[] = [];
    const total = { chromium: 0, node: 0, wall: 0 };
    const row = (name: string, chromium: number, node: number, wall: number) =>
      `  ${name.padEnd(11)} ${perPage(chromium, this.pages)}  ${perPage(node, this.pages)}  ${perPage(wall, this.pages)}`;
    for (const [part, chromium] of this.chromium) {
      const node = this.node.get(part) ?? 0;
      const wall = this.wall.get(part) ?? 0;
      total.chromium += chromium;
      total.node += node;
      total.wall += wall;
      rows.push(row(part, chromium, node, wall));
    }
    return [
      `  ${"part".padEnd(11)} ${"Chromium".padStart(8)}  ${"Node".padStart(8)}  ${"wall".padStart(8)}   (CPU and wall s per page, ${this.pages} renders)`,
      ...rows,
      row("total", total.chromium, total.node, total.wall),
    ].join("\n");
  }
}

function perPage(seconds: number, pages: number): string {
  return (pages ? seconds / pages : 0).toFixed(3).padStart(8);
}
