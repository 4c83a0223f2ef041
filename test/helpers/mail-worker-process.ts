/**
 * A worker process that sends mail, for the kill test (test/suites/mail-faults.test.ts): it opens the
 * backend a test names in its environment (see test/helpers/job-queues.ts), runs `send-mail` jobs through the
 * SMTP server at MAIL_TEST_SMTP_URL with the service's own handler and sender, and prints "ready".
 */
import { BullMqJobQueue } from "../../src/jobs/bullmq-job-queue.js";
import { DatabaseJobQueue } from "../../src/jobs/database-job-queue.js";
import type { JobQueue } from "../../src/jobs/job-queue.js";
import { SmtpSender } from "../../src/mail/mail-sender.js";
import { MailStore } from "../../src/mail/mail-store.js";
import { sendMailHandler, sendMailJob } from "../../src/mail/send-mail-job.js";
import { openStore } from "../../src/store/database.js";

const env = process.env;
const leaseMs = 1000;
const store = await openStore(
  env.DATABASE_URL ?? "",
  env.JOB_TEST_SCHEMA ? { schema: env.JOB_TEST_SCHEMA } : {},
);
const onError = (error: unknown) => process.stderr.write(`job error: ${(error as Error).message}\n`);
const queue: JobQueue =
  env.JOB_TEST_KIND === "bullmq"
    ? new BullMqJobQueue({
        url: env.JOB_TEST_REDIS_URL ?? "",
        keyPrefix: env.JOB_TEST_KEY_PREFIX ?? "",
        workers: 1,
        leaseMs,
        onError,
      })
    : new DatabaseJobQueue(store, { workers: 1, leaseMs, pollIntervalMs: 50, onError });
const retrySchedule = [1, 1, 1, 1];
const sender = new SmtpSender({
  smtpUrl: env.MAIL_TEST_SMTP_URL ?? "",
  from: "pagegrade@example.com",
  publicUrl: "https://pagegrade.test",
  timeoutSeconds: 30,
  retrySchedule,
});
queue.register(
  sendMailJob,
  sendMailHandler({ mails: new MailStore(store), jobs: queue, sender, retrySchedule }),
  {
    concurrency: 1,
    ownSlots: true,
  },
);
await queue.start();
process.stdout.write("ready\n");
