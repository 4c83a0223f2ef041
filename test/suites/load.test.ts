import type { ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { AccountService } from "../../src/accounts/account-service.js";
import { openStore } from "../../src/store/database.js";
import { html, startServer } from "../helpers/local-server.js";
import { type HeapUsage, measureHeap, startServiceProcess } from "../helpers/service-process.js";

/**
 * Mixed traffic (list, show, store against local pages, update, delete) from 50 connections for LOAD_SECONDS
 * (60 by default; `npm run test:soak` runs 10 minutes). No error other than the intended 429s, and no memory
 * growth after warm-up; p99 per operation is reported.
 *
 * Memory is judged by what the service still holds after a full garbage collection (heap and external
 * buffers, through the test-only heap probe), measured once warm-up ends and again when the traffic stops.
 * RSS is reported but only bounded loosely: V8 and the allocator keep freed pages, so RSS wanders by tens of
 * megabytes under load without anything leaking.
 */
const seconds = Number(process.env.LOAD_SECONDS ?? 60);
const connections = 50;
const warmUpMs = Math.min(15_000, (seconds * 1000) / 4);
/** A leak of 250 bytes per request would pass this after 60 s of this traffic; one of 1 KiB would not. */
const maximumHeapGrowthMb = 24;
const maximumRssMb = 768;

function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
}

describe("load", () => {
  const dir = mkdtempSync(join(tmpdir(), "pagegrade-load-"));
  let child: ChildProcess | undefined;
  afterAll(() => {
    child?.kill("SIGTERM");
    rmSync(dir, { recursive: true, force: true });
  });

  it(`serves ${connections} connections of mixed traffic for ${seconds} s without errors or memory growth`, {
    timeout: (seconds + 120) * 1000,
  }, async () => {
    const site = await startServer({
      "/": html(
        '<!doctype html><html lang="en"><title>Load test page</title><h1>Load</h1><p>Some text.</p></html>',
      ),
    });
    const databaseUrl = `sqlite:${join(dir, "load.db")}`;
    const setup = await openStore(databaseUrl);
    const accounts = new AccountService(setup);
    const keys: string[] = [];
    for (let index = 0; index < connections; index++)
      keys.push((await accounts.createUser(`load${index}@example.com`, null)).key);
    await setup.close();

    const started = await startServiceProcess(
      {
        DATABASE_URL: databaseUrl,
        PAGEGRADE_ALLOW_PRIVATE_NETWORKS: "1",
        PAGEGRADE_RATE_LIMIT: "100000",
        PAGEGRADE_MAX_CONCURRENT_ANALYSES: String(connections),
      },
      { heapProbe: true },
    );
    child = started.child;
    const service = started.child;
    const base = started.url;
    const latencies: Record<string, number[]> = { list: [], show: [], store: [], update: [], delete: [] };
    const statuses = new Map<string, number>();
    const failures: string[] = [];
    const deadline = Date.now() + seconds * 1000;
    let peakRss = 0;
    const sampler = setInterval(() => {
      peakRss = Math.max(peakRss, rssOf(service.pid as number));
    }, 1000);
    let warm: HeapUsage | undefined;
    const warmUp = setTimeout(() => {
      measureHeap(service).then(
        (usage) => {
          warm = usage;
        },
        (error: Error) => failures.push(`heap probe: ${error.message}`),
      );
    }, warmUpMs);

    const worker = async (key: string) => {
      const mine: number[] = [];
      const headers = { authorization: `Bearer ${key}` };
      const form = { ...headers, "content-type": "application/x-www-form-urlencoded" };
      while (Date.now() < deadline) {
        const roll = Math.random();
        const id = mine[Math.floor(Math.random() * mine.length)];
        let operation: string;
        let request: Promise<Response>;
        if (roll < 0.15 || id === undefined) {
          operation = "store";
          request = fetch(`${base}/api/v1/reports`, {
            method: "POST",
            headers: form,
            body: `url=${encodeURIComponent(`${site.url}/`)}&privacy=0`,
          });
        } else if (roll < 0.55) {
          operation = "list";
          request = fetch(`${base}/api/v1/reports?per_page=25&sort_by=url`, { headers });
        } else if (roll < 0.8) {
          operation = "show";
          request = fetch(`${base}/api/v1/reports/${id}`, { headers });
        } else if (roll < 0.93) {
          operation = "update";
          request = fetch(`${base}/api/v1/reports/${id}`, {
            method: "PATCH",
            headers: form,
            body: `privacy=${Math.floor(Math.random() * 2)}`,
          });
        } else {
          operation = "delete";
          request = fetch(`${base}/api/v1/reports/${id}`, { method: "DELETE", headers });
        }
        const started = performance.now();
        const response = await request;
        const body = await response.text();
        (latencies[operation] as number[]).push(performance.now() - started);
        statuses.set(
          `${operation} ${response.status}`,
          (statuses.get(`${operation} ${response.status}`) ?? 0) + 1,
        );
        const intended = response.status === 429 && operation === "store";
        if (!response.ok && !intended) failures.push(`${operation} ${response.status} ${body.slice(0, 120)}`);
        if (operation === "store" && response.status === 201)
          mine.push((JSON.parse(body) as { data: { id: number } }).data.id);
        if (operation === "delete" && response.ok) mine.splice(mine.indexOf(id as number), 1);
        if (intended) await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    await Promise.all(keys.map(worker));
    clearInterval(sampler);
    clearTimeout(warmUp);
    await site.close();
    const end = await measureHeap(service);

    const percentile = (values: number[], p: number) => {
      const sorted = [...values].sort((a, b) => a - b);
      return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
    };
    const total = Object.values(latencies).reduce((sum, values) => sum + values.length, 0);
    const held = (usage: HeapUsage) => (usage.heapUsed + usage.external) / 1048576;
    const growthMb = warm ? held(end) - held(warm) : Number.NaN;
    const p99s = Object.entries(latencies)
      .map(([operation, values]) => `${operation} p99 ${percentile(values, 99).toFixed(0)} ms`)
      .join(", ");
    const intended429 = statuses.get("store 429") ?? 0;
    console.log(
      `load: ${total} requests in ${seconds} s from ${connections} connections, ${failures.length} errors, ${intended429} intended 429s; ${p99s}; memory held after warm-up ${warm ? held(warm).toFixed(1) : "?"} MB → ${held(end).toFixed(1)} MB at the end; peak RSS ${Math.round(peakRss / 1048576)} MB`,
    );
    expect(failures.slice(0, 5)).toEqual([]);
    expect(total).toBeGreaterThan(connections * 10);
    expect(growthMb).toBeLessThan(maximumHeapGrowthMb);
    expect(peakRss / 1048576).toBeLessThan(maximumRssMb);
  });
});
