/**
 * Every kind of job the service runs, in one place (composition: it knows every handler and the services they
 * need): the handler for each job name, its concurrency, the maintenance tasks, and the recurring schedules.
 * The service (app.ts) and `pagegrade worker` both call this, so any process can run any job. A new kind of job
 * is one line here and a handler module.
 */

import { passwordResetMailHandler, passwordResetMailJob } from "./accounts/password-resets.js";
import type { SessionService } from "./accounts/session-service.js";
import { defaultMailRetrySchedule } from "./config.js";
import { announceMissedCrawls } from "./crawls/crawl-announcements.js";
import { scheduleDueCrawlsHandler, scheduleDueCrawlsJob } from "./crawls/crawl-schedules.js";
import { crawlHandler, crawlJob } from "./crawls/crawler.js";
import { pruneFinishedJobs } from "./jobs/database-job-queue.js";
import {
  finishedJobRetentionMs,
  type MaintenanceTask,
  maintenanceEveryMs,
  maintenanceHandler,
  maintenanceJob,
} from "./jobs/maintenance.js";
import { SmtpSender } from "./mail/mail-sender.js";
import { sendMailHandler, sendMailJob } from "./mail/send-mail-job.js";
import { analyseReportHandler, analyseReportJob } from "./reports/analysis-job.js";
import { scheduleDueReportsHandler, scheduleDueReportsJob, sweepEveryMs } from "./reports/schedules.js";
import type { Services } from "./services.js";
import type { Store } from "./store/store.js";
import { deliverWebhookHandler, deliverWebhookJob } from "./webhooks/delivery-job.js";

/**
 * The maintenance job's housekeeping: the ends of crawls whose process died before announcing them, expired web
 * sessions, used or expired password-reset links, team activity past its 90 days, then the queue's finished rows
 * past retention.
 */
export function maintenanceTasks(
  store: Store,
  sessions: SessionService,
  resetLinks?: { sweep(): Promise<void> },
  teamActivity?: { purgeActivity(now: number): Promise<void> },
  crawlEnds?: Parameters<typeof announceMissedCrawls>[0],
): MaintenanceTask[] {
  return [
    ...(crawlEnds ? [async (now: number) => void (await announceMissedCrawls(crawlEnds, now))] : []),
    () => sessions.sweep(),
    ...(resetLinks ? [() => resetLinks.sweep()] : []),
    ...(teamActivity ? [(now: number) => teamActivity.purgeActivity(now)] : []),
    (now: number) => pruneFinishedJobs(store, new Date(now - finishedJobRetentionMs)),
  ];
}

/** Registers the handlers on the services' queue (before it starts). */
export function registerJobs(services: Services): void {
  const { jobs, store, config } = services;
  jobs.register(
    maintenanceJob,
    maintenanceHandler(
      maintenanceTasks(store, services.sessions, services.passwordResets, services.teams, {
        crawls: services.crawlStores.crawls,
        events: services.events,
      }),
    ),
    {
      concurrency: 1,
    },
  );
  jobs.register(
    analyseReportJob,
    analyseReportHandler({
      reports: services.reportStore,
      analyzer: services.analyzer,
      events: services.events,
      scheduleIntervals: config.scheduleIntervals,
    }),
    { concurrency: Math.max(1, config.workers) },
  );
  jobs.register(
    deliverWebhookJob,
    deliverWebhookHandler({
      webhooks: services.webhookStore,
      jobs,
      secrets: services.secrets,
      outbound: services.analyzer.outbound(),
      retrySchedule: config.webhookRetrySchedule,
      timeoutMs: config.webhookTimeoutSeconds * 1000,
    }),
    // Slots of their own: a slow receiver holds a delivery's slot, never one that analyses and crawls use.
    { concurrency: config.webhookConcurrency, ownSlots: true },
  );
  jobs.register(
    sendMailJob,
    sendMailHandler({
      mails: services.mailStore,
      jobs,
      sender: config.mail ? new SmtpSender(config.mail) : null,
      retrySchedule: config.mail?.retrySchedule ?? defaultMailRetrySchedule,
    }),
    // Slots of their own, like webhook deliveries: a slow mail server holds a mail's slot and nothing else.
    { concurrency: 2, ownSlots: true },
  );
  // A slot of its own: a reset link is not kept waiting behind analyses and crawls.
  jobs.register(passwordResetMailJob, passwordResetMailHandler(services.passwordResets), {
    concurrency: 1,
    ownSlots: true,
  });
  jobs.register(
    crawlJob,
    crawlHandler({
      stores: services.crawlStores,
      reports: services.reportStore,
      analyzer: services.analyzer,
      events: services.events,
      settings: config.crawls,
      scheduleIntervals: config.scheduleIntervals,
      outbound: services.analyzer.outbound(),
      secrets: services.secrets,
      changes: services.crawls.changes,
    }),
    // Within the shared workers; a part waiting out a Crawl-delay is a delayed job, holding none.
    { concurrency: config.crawlWorkers },
  );
  jobs.register(scheduleDueReportsJob, scheduleDueReportsHandler(store, services.reportStore, jobs), {
    concurrency: 1,
  });
  jobs.register(
    scheduleDueCrawlsJob,
    scheduleDueCrawlsHandler(services.crawlStores.crawls, services.crawls),
    {
      concurrency: 1,
    },
  );
}

/** Declares the recurring jobs (idempotent: every process declares them, each period enqueues one). */
export async function scheduleJobs({ jobs, config }: Services): Promise<void> {
  await jobs.schedule({
    id: maintenanceJob,
    name: maintenanceJob,
    payload: null,
    everyMs: maintenanceEveryMs,
  });
  await jobs.schedule({
    id: scheduleDueReportsJob,
    name: scheduleDueReportsJob,
    payload: null,
    everyMs: sweepEveryMs(config.scheduleIntervals),
  });
  await jobs.schedule({
    id: scheduleDueCrawlsJob,
    name: scheduleDueCrawlsJob,
    payload: null,
    everyMs: sweepEveryMs(config.scheduleIntervals),
  });
}
