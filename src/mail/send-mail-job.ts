/**
 * The `send-mail` job: one attempt at one mail of the outbox, like a webhook delivery's. The attempt is
 * recorded as under way (`sending`) before the SMTP exchange and as `sent` after it, so a job run again after
 * the mail was sent sends nothing. A worker killed during the exchange leaves `sending`: the job, run again,
 * sends once more under the same Message-ID — at least once, twice only when the process died between the
 * server's acceptance and that record. A 4xx answer, a refused connection or a timeout is retried after the next
 * delay of PAGEGRADE_MAIL_RETRY_SCHEDULE (a delayed job of its own, keyed by mail and attempt: 5 attempts within
 * the hour by default); a 5xx answer, or the schedule spent, fails the mail. Mail jobs run in slots of their own,
 * so a slow mail server never holds a worker that analyses and crawls use.
 */
import type { JobContext, JobQueue } from "../jobs/job-queue.js";
import { timestamp } from "../timestamps.js";
import type { MailSender } from "./mail-sender.js";
import type { MailStore } from "./mail-store.js";

export const sendMailJob = "send-mail";

export interface SendMailPayload {
  mailId: number;
}

export interface SendMailDependencies {
  mails: MailStore;
  jobs: JobQueue;
  /** null when this process has no mail settings: the attempt fails and is retried, perhaps elsewhere. */
  sender: MailSender | null;
  /** Seconds before each retry. */
  retrySchedule: number[];
}

/** Enqueues the mail's attempt number `attempt`, `delayMs` from now. */
export function enqueueMail(jobs: JobQueue, mailId: number, attempt: number, delayMs = 0) {
  return jobs.enqueue(sendMailJob, { mailId } satisfies SendMailPayload, {
    key: `mail:${mailId}:${attempt}`,
    delayMs,
    attempts: 3,
  });
}

export function sendMailHandler({ mails, jobs, sender, retrySchedule }: SendMailDependencies) {
  return async (job: JobContext<SendMailPayload>): Promise<void> => {
    const mail = await mails.find(job.payload.mailId);
    if (mail?.status !== "pending" && mail?.status !== "sending") return;
    const attempts = mail.attempts + 1;
    if (!(await mails.startAttempt(mail.id, attempts))) return;
    const outcome = sender
      ? await sender.send(
          {
            to: mail.recipient,
            subject: mail.subject,
            text: mail.text_body,
            html: mail.html_body,
            messageId: mail.message_id,
            headers: mail.headers ? (JSON.parse(mail.headers) as Record<string, string>) : {},
          },
          job.signal,
        )
      : {
          sent: false as const,
          error: "Mail is not set up in the process that ran this attempt.",
          final: false,
        };
    if (job.signal.aborted) return; // handed back: the attempt runs again elsewhere
    const now = new Date();
    if (outcome.sent) {
      await mails.recordOutcome(mail.id, {
        status: "sent",
        attempts,
        last_error: null,
        next_attempt_at: null,
        sent_at: timestamp(now),
      });
      return;
    }
    const delaySeconds = outcome.final ? undefined : retrySchedule[attempts - 1];
    const nextAt = delaySeconds === undefined ? null : new Date(now.getTime() + delaySeconds * 1000);
    await mails.recordOutcome(mail.id, {
      status: nextAt ? "pending" : "failed",
      attempts,
      last_error: outcome.error,
      next_attempt_at: nextAt ? timestamp(nextAt) : null,
      sent_at: null,
    });
    if (delaySeconds !== undefined) await enqueueMail(jobs, mail.id, attempts + 1, delaySeconds * 1000);
  };
}
