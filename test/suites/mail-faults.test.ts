/**
 * A worker SIGKILLed in the middle of sending a mail (the SMTP server holds its answer to the message): the job
 * is taken over by another worker once the dead one's lease lapses, the mail is sent then, and only once — the
 * outbox's `sending` record tells the next run that an attempt was under way, and `sent` stops every later run.
 * On the embedded queue (SQLite) and BullMQ (Redis).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { MailSettings } from "../../src/config.js";
import { MailOutbox } from "../../src/mail/mail-outbox.js";
import { SmtpSender } from "../../src/mail/mail-sender.js";
import { MailStore } from "../../src/mail/mail-store.js";
import { sendMailHandler, sendMailJob } from "../../src/mail/send-mail-job.js";
import { eventually, type TestQueues, testQueues } from "../helpers/job-queues.js";
import { startTestSmtp, type TestSmtp } from "../helpers/smtp.js";

const root = fileURLToPath(new URL("../..", import.meta.url));

describe.each(["sqlite", "bullmq"] as const)("a mail worker killed mid-send (%s)", (kind) => {
  let queues: TestQueues;
  let smtp: TestSmtp;
  const children: ChildProcess[] = [];

  beforeEach(async () => {
    queues = await testQueues(kind);
    smtp = await startTestSmtp();
  });
  afterEach(async () => {
    for (const child of children) child.kill("SIGKILL");
    await queues.close();
    await smtp.close();
  });

  it("is redone by another worker and the mail arrives once", async () => {
    const settings: MailSettings = {
      smtpUrl: smtp.url,
      from: "pagegrade@example.com",
      publicUrl: "https://pagegrade.test",
      timeoutSeconds: 30,
      retrySchedule: [1, 1, 1, 1],
    };
    const mails = new MailStore(queues.database.store);
    const outbox = new MailOutbox(settings, mails, queues.open({ workers: 0 }));

    smtp.mode = "slow";
    smtp.slowMs = 60_000;
    const child = spawn(process.execPath, ["--import", "tsx", "test/helpers/mail-worker-process.ts"], {
      cwd: root,
      env: { ...process.env, ...queues.env, MAIL_TEST_SMTP_URL: smtp.url },
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.push(child);
    const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
    await new Promise<void>((resolve, reject) => {
      child.stdout?.on("data", (chunk: Buffer) => {
        if (chunk.toString().includes("ready")) resolve();
      });
      child.once("exit", (code) => reject(new Error(`the worker exited (${code})`)));
    });

    const id = await outbox.send("test", null, {
      to: "client@example.com",
      subject: "Hi",
      paragraphs: ["x"],
    });
    await eventually(() => smtp.attempts === 1, "the message to reach the server", 15_000);
    expect((await mails.find(id))?.status).toBe("sending");
    child.kill("SIGKILL");
    await exited;

    smtp.mode = "accept";
    const survivor = queues.open({ workers: 1 });
    survivor.register(
      sendMailJob,
      sendMailHandler({
        mails,
        jobs: survivor,
        sender: new SmtpSender(settings),
        retrySchedule: [1, 1, 1, 1],
      }),
      { concurrency: 1, ownSlots: true },
    );
    await survivor.start();
    await eventually(async () => (await mails.find(id))?.status === "sent", "the mail to be sent", 30_000);
    // Longer than a lease and a retry delay: nothing sends it again.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(smtp.received).toHaveLength(1);
    expect(smtp.attempts).toBe(2);
    expect((await mails.find(id))?.attempts).toBe(2);
  });
});
