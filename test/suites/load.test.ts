import type { ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { AccountService } from "../../src/accounts/account-service.js";
import { openStore } from "../../src/store/database.js";
import { html, startServer } from "../helpers/local-server.js";
import { startServiceProcess } from "../helpers/service-process.js";

/**
 * Mixed traffic (list, show, store against local pages, update, delete) from 50 connections for LOAD_SECONDS
 * (60 by default; `npm run test:soak` runs 10 minutes). No error other than the intended 429s, no memory
 * growth after warm-up; p99 per operation is reported.
 */
const seconds = Number(process.env.LOAD_SECONDS ?? 60);
const connections = 50;

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

    const started = await startServiceProcess({
      DATABASE_URL: databaseUrl,
      PAGEGRADE_ALLOW_PRIVATE_NETWORKS: "1",
      PAGEGRADE_RATE_LIMIT: "100000",
      PAGEGRADE_MAX_CONCURRENT_ANALYSES: String(connections),
    });
    child = started.child;
    const service = started.child;
    const base = started.url;
    const latencies: Record<string, number[]> = { list: [], show: [], store: [], update: [], delete: [] };
    const statuses = new Map<string, number>();
    const failures: string[] = [];
    const deadline = Date.now() + seconds * 1000;
    const samples: Array<{ at: number; rss: number }> = [];
    const sampler = setInterval(
      () => samples.push({ at: Date.now(), rss: rssOf(service.pid as number) }),
      2000,
    );

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
    await site.close();

    const percentile = (values: number[], p: number) => {
      const sorted = [...values].sort((a, b) => a - b);
      return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
    };
    const total = Object.values(latencies).reduce((sum, values) => sum + values.length, 0);
    const warm = samples.filter(
      (sample) => sample.at - (samples[0]?.at ?? 0) >= Math.min(15_000, (seconds * 1000) / 4),
    );
    const baseline = Math.min(...warm.slice(0, 3).map((sample) => sample.rss));
    const end = Math.max(...warm.slice(-3).map((sample) => sample.rss));
    const growthMb = (end - baseline) / 1024 / 1024;
    const p99s = Object.entries(latencies)
      .map(([operation, values]) => `${operation} p99 ${percentile(values, 99).toFixed(0)} ms`)
      .join(", ");
    const intended429 = statuses.get("store 429") ?? 0;
    console.log(
      `load: ${total} requests in ${seconds} s from ${connections} connections, ${failures.length} errors, ${intended429} intended 429s; ${p99s}; RSS after warm-up ${Math.round(baseline / 1048576)} MB → ${Math.round(end / 1048576)} MB`,
    );
    expect(failures.slice(0, 5)).toEqual([]);
    expect(total).toBeGreaterThan(connections * 10);
    expect(growthMb).toBeLessThan(64);
  });
});
