/**
 * The `deliver-webhook` job: one attempt at one delivery. It POSTs the stored body with Standard Webhooks
 * headers through the address guard (the webhook URL's host is vetted on every connection), follows no
 * redirect, and gives the receiver PAGEGRADE_WEBHOOK_TIMEOUT_SECONDS (15 s) for the whole exchange, of which
 * at most 5 s to accept the connection, reading at most 64 KiB of its answer: a slow, huge or hostile receiver cannot hold a delivery slot
 * longer. Deliveries run in slots of their own (PAGEGRADE_WEBHOOK_CONCURRENCY), never in the workers that
 * analyses and crawls use. A 2xx succeeds; a 410 fails the delivery and disables
 * the webhook; anything else is retried after the next delay of PAGEGRADE_WEBHOOK_RETRY_SCHEDULE (a delayed job
 * of its own, keyed by delivery and attempt), and fails once the schedule is spent. A delivery that is no longer
 * pending is left alone, so a job run twice never sends a delivered event again; one whose process died
 * mid-send is sent again with the same `webhook-id` (at least once).
 */
import { request } from "undici";
import type { ConnectionGuard } from "../analysis/fetch/connection-guard.js";
import { FetchFailure } from "../analysis/fetch/fetch-failure.js";
import { GuardedAgent } from "../analysis/fetch/guarded-agent.js";
import type { JobContext, JobQueue } from "../jobs/job-queue.js";
import type { SecretBox } from "../store/secret-box.js";
import { timestamp } from "../timestamps.js";
import { signatureOf } from "./signature.js";
import type { PendingDelivery, WebhookStore } from "./webhook-store.js";

export const deliverWebhookJob = "deliver-webhook";
/** The longest a receiver may take to accept the connection. */
const connectBudgetMs = 5_000;
/** The receiver's answer is read up to this much, then dropped. */
const answerCapBytes = 64 * 1024;

export interface DeliverWebhookPayload {
  deliveryId: number;
}

export interface DeliveryDependencies {
  webhooks: WebhookStore;
  jobs: JobQueue;
  secrets: SecretBox;
  outbound: { guard: ConnectionGuard; extraCaCertificates: string | null; userAgent: string };
  /** Seconds before each retry. */
  retrySchedule: number[];
  /** Milliseconds the receiver has to accept the connection and answer. */
  timeoutMs: number;
}

/** Enqueues the delivery's next attempt, `delayMs` from now, in the turn of the webhook's user. */
export function enqueueDelivery(
  jobs: JobQueue,
  delivery: { id: number; userId: number },
  attempt: number,
  delayMs = 0,
) {
  return jobs.enqueue(deliverWebhookJob, { deliveryId: delivery.id } satisfies DeliverWebhookPayload, {
    key: `delivery:${delivery.id}:${attempt}`,
    delayMs,
    attempts: 3,
    userId: delivery.userId,
  });
}

export function deliverWebhookHandler(dependencies: DeliveryDependencies) {
  const { webhooks, jobs, retrySchedule } = dependencies;
  return async (job: JobContext<DeliverWebhookPayload>): Promise<void> => {
    const delivery = await webhooks.pending(job.payload.deliveryId);
    if (delivery?.status !== "pending") return;
    const attempts = delivery.attempts + 1;
    if (delivery.enabled !== 1) {
      await webhooks.recordAttempt(delivery.id, {
        status: "failed",
        attempts: delivery.attempts,
        last_status_code: delivery.last_status_code,
        last_error: "The webhook is disabled.",
        next_attempt_at: null,
        delivered_at: null,
      });
      return;
    }
    const outcome = await send(delivery, dependencies, job.signal);
    if (job.signal.aborted) return; // handed back: the attempt runs again elsewhere
    const now = new Date();
    const statusCode = outcome.statusCode ?? null;
    if (statusCode !== null && statusCode >= 200 && statusCode <= 299) {
      await webhooks.recordAttempt(delivery.id, {
        status: "succeeded",
        attempts,
        last_status_code: statusCode,
        last_error: null,
        next_attempt_at: null,
        delivered_at: timestamp(now),
      });
      return;
    }
    const delaySeconds = retrySchedule[attempts - 1];
    const gone = statusCode === 410;
    const retry = !gone && delaySeconds !== undefined;
    const nextAt = retry ? new Date(now.getTime() + delaySeconds * 1000) : null;
    await webhooks.recordAttempt(delivery.id, {
      status: retry ? "pending" : "failed",
      attempts,
      last_status_code: statusCode,
      last_error: outcome.error ?? (gone ? "The receiver answered 410 Gone; the webhook is disabled." : null),
      next_attempt_at: nextAt ? timestamp(nextAt) : null,
      delivered_at: null,
    });
    if (gone) await webhooks.disable(delivery.webhook_id, timestamp(now));
    if (retry) {
      const next = { id: delivery.id, userId: delivery.user_id };
      await enqueueDelivery(jobs, next, attempts + 1, delaySeconds * 1000);
    }
  };
}

/** One POST; never throws for anything the receiver or the network does. */
async function send(
  delivery: PendingDelivery,
  { secrets, outbound, timeoutMs }: DeliveryDependencies,
  cancelled: AbortSignal,
): Promise<{ statusCode?: number; error?: string }> {
  const id = String(delivery.id);
  const sentAt = Math.floor(Date.now() / 1000);
  const agent = new GuardedAgent(outbound.guard, {
    connectTimeoutMs: Math.min(connectBudgetMs, timeoutMs),
    headersTimeoutMs: timeoutMs,
    bodyTimeoutMs: timeoutMs,
    extraCaCertificates: outbound.extraCaCertificates,
  });
  const deadline = AbortSignal.any([AbortSignal.timeout(timeoutMs), cancelled]);
  try {
    const response = await request(delivery.url, {
      method: "POST",
      dispatcher: agent.dispatcher,
      signal: deadline,
      headers: {
        "content-type": "application/json",
        "user-agent": outbound.userAgent,
        "webhook-id": id,
        "webhook-timestamp": String(sentAt),
        "webhook-signature": signatureOf(secrets.open(delivery.secret), id, sentAt, delivery.body),
      },
      body: delivery.body,
    });
    // The status decides. A little of the answer is read (within the same deadline) and the rest dropped: a
    // receiver that streams forever or slowly cannot hold the worker.
    try {
      let read = 0;
      for await (const chunk of response.body) {
        read += (chunk as Buffer).length;
        if (read >= answerCapBytes) break;
      }
    } catch {
      // A body cut short changes nothing: the status has arrived.
    } finally {
      response.body.destroy();
    }
    if (response.statusCode >= 300 && response.statusCode <= 399) {
      return {
        statusCode: response.statusCode,
        error: `The receiver answered ${response.statusCode}; redirects are not followed.`,
      };
    }
    if (response.statusCode < 200 || response.statusCode > 299) {
      return { statusCode: response.statusCode, error: `The receiver answered ${response.statusCode}.` };
    }
    return { statusCode: response.statusCode };
  } catch (error) {
    return { error: failureMessage(error, deadline, timeoutMs) };
  } finally {
    await agent.close().catch(() => {});
  }
}

function failureMessage(error: unknown, deadline: AbortSignal, timeoutMs: number): string {
  if (error instanceof FetchFailure) return error.message;
  const cause = (error as { cause?: unknown })?.cause;
  if (cause instanceof FetchFailure) return cause.message;
  // The agent's own header and body timers share the deadline's length and may fire first.
  const code = (error as { code?: unknown })?.code;
  if (deadline.aborted || code === "UND_ERR_HEADERS_TIMEOUT" || code === "UND_ERR_BODY_TIMEOUT")
    return `The receiver did not answer within ${timeoutMs / 1000} s.`;
  return "A connection to the receiver could not be established.";
}
