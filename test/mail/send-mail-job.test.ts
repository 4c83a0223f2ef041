/**
 * The `send-mail` job against a real SMTP server in this process (test/helpers/smtp.ts), on every queue: the
 * embedded one on SQLite and PostgreSQL, and BullMQ on Redis. A mail arrives once with both parts; CR/LF in a
 * value never reaches the SMTP conversation; a refusal (5xx) fails the mail at once, a refusal for now (4xx), a
 * closed port and a server too slow to answer are retried after the schedule's delays, and a mail once sent is
 * never sent again, however often its job runs.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { MailSettings } from "../../src/config.js";
import type { JobQueue } from "../../src/jobs/job-queue.js";
import { MailOutbox } from "../../src/mail/mail-outbox.js";
import { SmtpSender } from "../../src/mail/mail-sender.js";
import { MailStore } from "../../src/mail/mail-store.js";
import { enqueueMail, sendMailHandler, sendMailJob } from "../../src/mail/send-mail-job.js";
import { eventually, queueKinds, type TestQueues, testQueues } from "../helpers/job-queues.js";
import { closedPort, startTestSmtp, type TestSmtp } from "../helpers/smtp.js";

describe.each(queueKinds)("mail sent by the job queue (%s)", (kind) => {
  let queues: TestQueues;
  let smtp: TestSmtp;
  let queue: JobQueue;
  let mails: MailStore;

  const start = async (smtpUrl: string, retrySchedule = [1, 1, 1, 1]) => {
    const settings: MailSettings = {
      smtpUrl,
      from: "pagegrade@example.com",
      publicUrl: "https://pagegrade.test",
      timeoutSeconds: 1,
      retrySchedule,
    };
    mails = new MailStore(queues.database.store);
    queue = queues.open({ workers: 2 });
    queue.register(
      sendMailJob,
      sendMailHandler({ mails, jobs: queue, sender: new SmtpSender(settings), retrySchedule }),
      { concurrency: 2, ownSlots: true },
    );
    await queue.start();
    return new MailOutbox(settings, mails, queue);
  };

  beforeEach(async () => {
    queues = await testQueues(kind);
    smtp = await startTestSmtp();
  });
  afterEach(async () => {
    await queues.close();
    await smtp.close();
  });

  it("delivers a mail once, with its headers and both parts, and a job run again sends nothing", async () => {
    const outbox = await start(smtp.url);
    const id = await outbox.send("test", null, {
      to: "client@example.com",
      subject: "Your audit <b>ready</b>",
      paragraphs: ['The page "<script>alert(1)</script>" & friends.'],
      link: { label: "Open", url: "https://pagegrade.test/crawls/1/audit?x=1&y=2" },
    });
    await eventually(async () => (await mails.find(id))?.status === "sent", "the mail to be sent");
    expect(smtp.received).toHaveLength(1);
    const mail = smtp.received[0];
    expect(mail?.subject).toBe("Your audit <b>ready</b>");
    expect(mail?.from?.text).toBe("pagegrade@example.com");
    expect((mail?.to as { text: string } | undefined)?.text).toBe("client@example.com");
    expect(mail?.messageId).toBe((await mails.find(id))?.message_id);
    expect(mail?.text).toContain('The page "<script>alert(1)</script>" & friends.');
    expect(mail?.text).toContain("https://pagegrade.test/crawls/1/audit?x=1&y=2");
    expect(mail?.html).toContain("&#60;script&#62;alert(1)&#60;/script&#62;");
    expect(mail?.html).not.toContain("<script>");
    expect(mail?.html).toContain('href="https://pagegrade.test/crawls/1/audit?x=1&#38;y=2"');
    // The SMTP URL's credentials were used (AUTH), and are never stored with the mail.
    expect(smtp.conversation()).toMatch(/AUTH PLAIN|AUTH LOGIN/);

    // A job redone after the mail was sent (a worker killed after recording it) sends nothing.
    await enqueueMail(queue, id, 1);
    await enqueueMail(queue, id, 7);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(smtp.attempts).toBe(1);
    expect((await mails.find(id))?.attempts).toBe(1);
  });

  it("never lets CR/LF in a value reach the SMTP conversation as a header or a command", async () => {
    const outbox = await start(smtp.url);
    // A recipient with anything but one plain address in it is refused before it is stored.
    for (const to of [
      "client@example.com\r\nRCPT TO:<victim@example.com>",
      "client@example.com, victim@example.com",
      '"Client" <client@example.com>',
    ]) {
      await expect(outbox.send("test", null, { to, subject: "Hi", paragraphs: ["x"] })).rejects.toThrow(
        /not one plain e-mail address/,
      );
    }
    const id = await outbox.send("test", null, {
      to: "client@example.com",
      subject: "Audit of Acme\r\nBcc: victim@example.com\r\n\r\nInjected body\u2028X-Evil: 1",
      paragraphs: ["Hello"],
    });
    await eventually(async () => (await mails.find(id))?.status === "sent", "the mail to be sent");
    const conversation = smtp.conversation();
    // The commands and the message's header section: one recipient, no added header.
    const dataAt = conversation.indexOf("\r\nDATA\r\n");
    const commands = conversation.slice(0, dataAt);
    const headerSection = conversation.slice(dataAt + 8, conversation.indexOf("\r\n\r\n", dataAt + 8));
    expect(commands.match(/RCPT TO:/gi) ?? []).toHaveLength(1);
    expect(commands).toContain("RCPT TO:<client@example.com>");
    expect(commands).not.toMatch(/victim/i);
    expect(headerSection).not.toMatch(/^(Bcc|X-Evil|Injected)/im);
    expect(headerSection).toMatch(
      /^Subject: Audit of Acme Bcc: victim@example\.com Injected body X-Evil: 1$/m,
    );
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]?.headers.has("bcc")).toBe(false);
    expect(smtp.received[0]?.headers.has("x-evil")).toBe(false);
    expect(smtp.received[0]?.subject).toBe("Audit of Acme Bcc: victim@example.com Injected body X-Evil: 1");
  });

  it("fails a mail the server refuses for good (5xx) after one attempt", async () => {
    smtp.mode = "refuse";
    const outbox = await start(smtp.url);
    const id = await outbox.send("test", null, {
      to: "client@example.com",
      subject: "Hi",
      paragraphs: ["x"],
    });
    await eventually(async () => (await mails.find(id))?.status === "failed", "the mail to fail");
    const mail = await mails.find(id);
    expect(mail?.attempts).toBe(1);
    expect(mail?.last_error).toBe("The mail server answered 550.");
    expect(smtp.received).toHaveLength(0);
  });

  it("retries a refusal for now (4xx) after the schedule's delay and delivers once", async () => {
    smtp.mode = "refuse-for-now";
    const outbox = await start(smtp.url, [1, 1, 1, 1]);
    const id = await outbox.send("test", null, {
      to: "client@example.com",
      subject: "Hi",
      paragraphs: ["x"],
    });
    await eventually(async () => (await mails.find(id))?.last_error !== null, "the first attempt to end");
    const first = await mails.find(id);
    expect(first?.status).toBe("pending");
    expect(first?.last_error).toBe("The mail server answered 451.");
    expect(first?.next_attempt_at).not.toBeNull();
    smtp.mode = "accept";
    await eventually(async () => (await mails.find(id))?.status === "sent", "the retry to deliver", 15_000);
    expect((await mails.find(id))?.attempts).toBe(2);
    expect(smtp.received).toHaveLength(1);
  });

  it("gives up on a closed port after 5 attempts, spaced by the schedule", async () => {
    const outbox = await start(`smtp://127.0.0.1:${await closedPort()}`, [1, 1, 1, 1]);
    const started = Date.now();
    const id = await outbox.send("test", null, {
      to: "client@example.com",
      subject: "Hi",
      paragraphs: ["x"],
    });
    await eventually(async () => (await mails.find(id))?.status === "failed", "the mail to fail", 20_000);
    const mail = await mails.find(id);
    expect(mail?.attempts).toBe(5);
    expect(mail?.last_error).toBe("A connection to the mail server could not be established.");
    // Four waits of a second each between the five attempts.
    expect(Date.now() - started).toBeGreaterThanOrEqual(4_000);
  });

  it("gives a server that answers too late only the mail job's time, then retries", async () => {
    smtp.mode = "slow";
    smtp.slowMs = 5_000;
    const outbox = await start(smtp.url, [1, 1, 1, 1]);
    const id = await outbox.send("test", null, {
      to: "client@example.com",
      subject: "Hi",
      paragraphs: ["x"],
    });
    const began = Date.now();
    await eventually(
      async () => (await mails.find(id))?.attempts === 1 && (await mails.find(id))?.status === "pending",
      "the first attempt to time out",
      10_000,
    );
    // The attempt ended at the 1 s answer timeout, not at the server's 5 s.
    expect(Date.now() - began).toBeLessThan(4_000);
    expect((await mails.find(id))?.last_error).toMatch(/did not (answer|finish) within/);
    smtp.mode = "accept";
    await eventually(async () => (await mails.find(id))?.status === "sent", "the retry to deliver", 15_000);
    expect(smtp.received).toHaveLength(1);
  });
});
