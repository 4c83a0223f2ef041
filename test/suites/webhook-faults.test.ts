/**
 * Webhook deliveries under faults on the distributed set-up (an API process running no jobs and a
 * `pagegrade worker`, PostgreSQL and BullMQ on Redis): a receiver that is down for a while gets the delivery on
 * a later attempt of the retry schedule, with the same webhook-id; the worker SIGKILLed while a retry waits
 * does not lose it (another worker sends it). npm run test:jobs.
 */
import { type ChildProcess, spawn } from "node:child_process";
import type { IncomingMessage } from "node:http";
import { afterAll, describe, expect, it } from "vitest";
import { AccountService } from "../../src/accounts/account-service.js";
import { distributedSetup } from "../helpers/distributed-setup.js";
import { eventually } from "../helpers/job-queues.js";
import { type LocalServer, startServer } from "../helpers/local-server.js";
import { freePort, startServiceProcess } from "../helpers/service-process.js";

const bin = new URL("../../bin/pagegrade.js", import.meta.url).pathname;

describe("webhook deliveries under faults (PostgreSQL, BullMQ)", () => {
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
  });

  it("delivers to a receiver that was down, on a later attempt, though the worker was killed meanwhile", {
    timeout: 90_000,
  }, async () => {
    const { database, shared, drop } = await distributedSetup();
    const env = {
      ...process.env,
      LOG_LEVEL: "warn",
      ...shared,
      PAGEGRADE_ALLOW_PRIVATE_NETWORKS: "1",
      PAGEGRADE_RATE_LIMIT: "0",
      PAGEGRADE_JOB_LEASE_SECONDS: "2",
      PAGEGRADE_WEBHOOK_RETRY_SCHEDULE: "1,3,3,3",
    };
    let receiver: LocalServer | undefined;
    try {
      const { key } = await new AccountService(database.store).createUser("hooks@example.com", null);
      const api = await startServiceProcess({ ...(env as Record<string, string>), PAGEGRADE_WORKERS: "0" });
      children.push(api.child);
      const startWorker = () => {
        const child = spawn(process.execPath, [bin, "worker"], { env, stdio: "ignore" });
        children.push(child);
        return child;
      };
      const first = startWorker();
      const port = await freePort();
      const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
      const created = await fetch(`${api.url}/api/v1/webhooks`, {
        method: "POST",
        headers,
        body: JSON.stringify({ url: `http://127.0.0.1:${port}/hook` }),
      });
      expect(created.status).toBe(201);
      const hook = ((await created.json()) as { data: { id: number } }).data;
      const deliveries = async () =>
        (
          (await (await fetch(`${api.url}/api/v1/webhooks/${hook.id}/deliveries`, { headers })).json()) as {
            data: Array<{ status: string; attempts: number; last_error: string | null }>;
          }
        ).data;
      const pinged = await fetch(`${api.url}/api/v1/webhooks/${hook.id}/ping`, {
        method: "POST",
        headers: { authorization: headers.authorization },
      });
      expect(pinged.status).toBe(202);
      // Nothing listens: the first attempts fail to connect.
      await eventually(
        async () => ((await deliveries())[0]?.attempts ?? 0) >= 2,
        "two failed attempts",
        30_000,
      );
      expect((await deliveries())[0]).toMatchObject({ status: "pending" });
      expect((await deliveries())[0]?.last_error).toContain("could not be established");
      // The worker dies while the next attempt waits; another takes over; the receiver comes up.
      first.kill("SIGKILL");
      startWorker();
      const received: IncomingMessage["headers"][] = [];
      receiver = await startServer(
        {
          "/hook": (request, response) => {
            received.push(request.headers);
            request.resume();
            request.on("end", () => response.writeHead(204).end());
          },
        },
        { port },
      );
      await eventually(async () => (await deliveries())[0]?.status === "succeeded", "the delivery", 40_000);
      expect(received).toHaveLength(1);
      expect(received[0]?.["webhook-id"]).toMatch(/^[1-9][0-9]*$/);
      expect((await deliveries())[0]?.attempts).toBeGreaterThanOrEqual(3);
    } finally {
      for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
      await receiver?.close();
      await drop();
    }
  });
});
