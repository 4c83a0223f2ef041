/**
 * The event sink that turns what happened into webhook deliveries. An analysis outside a crawl announces
 * `report.completed` or `report.failed`, plus `report.regressed` when it is not the report's first complete
 * analysis and the diff against the previous one regressed a high-importance check or dropped the score by
 * PAGEGRADE_REGRESSION_SCORE_DROP points or more. A crawl announces `crawl.completed` or `crawl.failed`, plus
 * `crawl.regressed` when, compared with the previous complete crawl of its project, it has a new or regressed
 * finding of high importance or its score dropped by PAGEGRADE_REGRESSION_SCORE_DROP points or more. Each
 * subscribed, enabled webhook of the workspace that holds the report or crawl (its creator's own, or its team's:
 * a team's webhooks get the team's events only, their payload naming `"team"`) gets one delivery per event, keyed by what was announced, so a job
 * that announces the same analysis again (after a crash) makes no second delivery; a pending one is enqueued
 * again (the queue's key makes that a no-op while its job waits).
 */

import { isRegression } from "../analysis/analysis-diff.js";
import type { AnalysisRecorded, CrawlFinished, EventSink } from "../events/event-sink.js";
import type { JobQueue } from "../jobs/job-queue.js";
import type { HistoryService } from "../reports/history-service.js";
import type { WorkspaceScope } from "../store/owned-rows.js";
import { timestamp } from "../timestamps.js";
import { enqueueDelivery } from "./delivery-job.js";
import type { WebhookEvent } from "./webhook-service.js";
import type { WebhookStore } from "./webhook-store.js";

export interface WebhookEventDependencies {
  webhooks: WebhookStore;
  history: HistoryService;
  jobs: JobQueue;
  regressionScoreDrop: number;
  /** The workspace that holds the report or crawl an event names by its creator (undefined when it is gone). */
  workspaceOf: {
    report: (userId: number, reportId: number) => Promise<WorkspaceScope | undefined>;
    crawl: (userId: number, crawlId: number) => Promise<WorkspaceScope | undefined>;
  };
  /** The report object as the API shows it, without its results, as JSON (null when the report is gone). */
  reportObject: (workspace: WorkspaceScope, reportId: number) => Promise<Buffer | null>;
  /** The crawl object as the API shows it, for crawl events (null when the crawl is gone). */
  crawlObject?: (workspace: WorkspaceScope, crawlId: number) => Promise<unknown | null>;
  /**
   * For `crawl.regressed`: the complete crawl's diff against the previous complete crawl of its project, its
   * lists cut to 20 entries, when it regressed (a new or regressed high-importance finding, or a score drop of
   * `regressionScoreDrop` points or more); null when it did not.
   */
  crawlRegression?: (
    workspace: WorkspaceScope,
    crawlId: number,
    scoreDrop: number,
  ) => Promise<unknown | null>;
}

/** One event to announce; `data` is its JSON text. */
interface Announcement {
  type: WebhookEvent;
  data: string;
}

export class WebhookEvents implements EventSink {
  constructor(private readonly dependencies: WebhookEventDependencies) {}

  async analysisRecorded(event: AnalysisRecorded): Promise<void> {
    if (event.trigger === "crawl") return;
    const { webhooks, history, regressionScoreDrop, reportObject, workspaceOf } = this.dependencies;
    const workspace = await workspaceOf.report(event.userId, event.reportId);
    if (!workspace) return;
    const subscribed = await webhooks.enabled(workspace);
    if (subscribed.length === 0) return;
    const presented = await reportObject(workspace, event.reportId);
    if (!presented) return;
    const report = presented.toString("utf8");
    const key = `analysis:${event.analysisId}`;
    const announcements: Announcement[] = [
      { type: event.status === "complete" ? "report.completed" : "report.failed", data: report },
    ];
    if (event.status === "complete") {
      const diff = await history
        .diff(workspace, event.reportId, { to: event.analysisId })
        .catch(() => undefined);
      if (diff && isRegression(diff, { importances: ["high"], scoreDrop: regressionScoreDrop })) {
        // The report object with its diff as one more member.
        announcements.push({
          type: "report.regressed",
          data: `${report.slice(0, -1)},"diff":${JSON.stringify(diff)}}`,
        });
      }
    }
    await this.fanOut(workspace, subscribed, key, announcements);
  }

  async crawlFinished(event: CrawlFinished): Promise<void> {
    if (event.status === "cancelled") return;
    const { webhooks, crawlObject, workspaceOf } = this.dependencies;
    const workspace = await workspaceOf.crawl(event.userId, event.crawlId);
    if (!workspace) return;
    const subscribed = await webhooks.enabled(workspace);
    if (subscribed.length === 0 || !crawlObject) return;
    const crawl = await crawlObject(workspace, event.crawlId);
    if (crawl === null) return;
    const type: WebhookEvent = event.status === "complete" ? "crawl.completed" : "crawl.failed";
    const data = JSON.stringify(crawl);
    const announcements: Announcement[] = [{ type, data }];
    if (
      event.status === "complete" &&
      subscribed.some((webhook) => webhook.events.includes("crawl.regressed"))
    ) {
      const diff = await this.dependencies.crawlRegression?.(
        workspace,
        event.crawlId,
        this.dependencies.regressionScoreDrop,
      );
      if (diff) {
        // The crawl object with the diff as one more member.
        announcements.push({
          type: "crawl.regressed",
          data: `${data.slice(0, -1)},"diff":${JSON.stringify(diff)}}`,
        });
      }
    }
    await this.fanOut(workspace, subscribed, `crawl:${event.crawlId}`, announcements);
  }

  /** The deliveries of the announcements to the workspace's subscribed webhooks (each its creator's delivery). */
  private async fanOut(
    workspace: WorkspaceScope,
    subscribed: Awaited<ReturnType<WebhookStore["enabled"]>>,
    key: string,
    announcements: Announcement[],
  ): Promise<void> {
    const { webhooks, jobs } = this.dependencies;
    const now = timestamp();
    const team = workspace.teamId === null ? "" : `,"team":${workspace.teamId}`;
    for (const { type, data } of announcements) {
      const body = `{"type":${JSON.stringify(type)},"timestamp":${JSON.stringify(now)}${team},"data":${data}}`;
      for (const webhook of subscribed) {
        if (!webhook.events.split(",").includes(type)) continue;
        const userId = webhook.user_id;
        const delivery = await webhooks.ensureDelivery({
          webhook_id: webhook.id,
          user_id: userId,
          event: type,
          event_key: `${key}:${type}`,
          body,
          created_at: now,
        });
        if (delivery.status === "pending" && delivery.attempts === 0)
          await enqueueDelivery(jobs, { id: delivery.id, userId }, 1);
      }
    }
  }
}
