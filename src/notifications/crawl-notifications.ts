/**
 * The event sink that mails a project's recipients when one of its crawls completes (next to the webhooks'
 * sink, events/event-sink.ts): under `completed` every complete crawl, under `regressed` only one the comparison
 * with the previous complete crawl calls regressed (the `crawl.regressed` webhook's rule, isSiteRegression),
 * under `never` none, in the crawl's own workspace (its creator's own or a team's). One mail per recipient still
 * a member of that workspace and not unsubscribed, queued through the outbox under the key
 * `crawl-notification:<crawl>:<recipient>`, so a crawl's end announced again (a retried job) sends nothing twice.
 * Without mail set up, nothing is queued.
 */
import type { CrawlComparison } from "../crawls/crawl-diff.js";
import { isSiteRegression } from "../crawls/crawl-diff.js";
import type { CrawlStore } from "../crawls/crawl-store.js";
import type { CrawlFinished, EventSink } from "../events/event-sink.js";
import type { MailOutbox } from "../mail/mail-outbox.js";
import { workspaceOf } from "../store/owned-rows.js";
import { crawlNotificationMail } from "./crawl-notification-mail.js";
import {
  crawlNotificationKey,
  crawlNotificationPurpose,
  type NotificationSettings,
} from "./notification-settings.js";

export interface CrawlNotificationDependencies {
  settings: NotificationSettings;
  crawls: CrawlStore;
  comparison: CrawlComparison;
  mail: MailOutbox;
  /** PAGEGRADE_REGRESSION_SCORE_DROP. */
  regressionScoreDrop: number;
}

export class CrawlNotifications implements EventSink {
  constructor(private readonly dependencies: CrawlNotificationDependencies) {}

  async analysisRecorded(): Promise<void> {}

  async crawlFinished(event: CrawlFinished): Promise<void> {
    const { settings, crawls, comparison, mail, regressionScoreDrop } = this.dependencies;
    if (event.status !== "complete" || !mail.isSetUp) return;
    const crawl = await crawls.findByCreator(event.userId, event.crawlId);
    if (crawl?.status !== "complete") return;
    const ownerId = crawl.user_id;
    const workspace = workspaceOf(crawl);
    // Only the workspace's current members: one removed from the team since the settings were saved is skipped.
    const { email_on, recipients } = await settings.effective(workspace, crawl.project);
    if (email_on === "never" || recipients.length === 0) return;
    const diff = await comparison.diff(workspace, crawl.id);
    if (!diff) return;
    const regressed = isSiteRegression(diff, regressionScoreDrop);
    if (email_on === "regressed" && !regressed) return;
    const unsubscribed = new Set(await settings.unsubscribed(workspace, crawl.project));
    const comparisonPath = `/crawls/${crawl.id}/diff${diff.from ? `?from=${diff.from.id}` : ""}`;
    for (const recipient of recipients) {
      if (unsubscribed.has(recipient)) continue;
      const token = await settings.unsubscribeToken({
        ownerId,
        teamId: workspace.teamId,
        project: crawl.project,
        recipient,
      });
      const content = crawlNotificationMail({
        to: recipient,
        diff,
        regressed,
        emailOn: email_on,
        links: {
          comparison: mail.link(comparisonPath),
          audit: mail.link(`/crawls/${crawl.id}/audit`),
          unsubscribe: mail.link(`/unsubscribe?token=${encodeURIComponent(token)}`),
        },
      });
      await mail.send(crawlNotificationPurpose, ownerId, content, {
        dedupeKey: `${crawlNotificationKey(crawl.id)}${recipient}`,
      });
    }
  }
}
