/**
 * The composition root of the domain: the stores and services built once per process over one database, one
 * analysis engine and one job queue. The HTTP app (app.ts) serves them; every process that runs jobs (the
 * service, `pagegrade worker`) registers the same job handlers over them (job-registry.ts), so any process can
 * run any job.
 */
import { AccountService } from "./accounts/account-service.js";
import { PasswordResets } from "./accounts/password-resets.js";
import { SessionService } from "./accounts/session-service.js";
import type { Analyzer } from "./analysis/analyse.js";
import { BrandingStore } from "./branding/branding-store.js";
import { Brandings } from "./branding/brandings.js";
import type { ServiceConfig } from "./config.js";
import { CrawlAuditStore } from "./crawls/crawl-audit-store.js";
import { CrawlAudits } from "./crawls/crawl-audits.js";
import { CrawlChangeSummaries } from "./crawls/crawl-change-summary.js";
import { CrawlComparison, isSiteRegression, shortenedDiff } from "./crawls/crawl-diff.js";
import { CrawlFindings } from "./crawls/crawl-findings.js";
import { CrawlService } from "./crawls/crawl-service.js";
import { type CrawlStores, openCrawlStores } from "./crawls/crawl-stores.js";
import { crawlObject } from "./crawls/present.js";
import type { EventSink } from "./events/event-sink.js";
import { everySink } from "./events/every-sink.js";
import type { JobQueue } from "./jobs/job-queue.js";
import { MailOutbox } from "./mail/mail-outbox.js";
import { MailStore } from "./mail/mail-store.js";
import { CrawlNotifications } from "./notifications/crawl-notifications.js";
import { NotificationSettings } from "./notifications/notification-settings.js";
import { NotificationStore } from "./notifications/notification-store.js";
import { UnsubscribeTokens } from "./notifications/unsubscribe-token.js";
import { ProjectService } from "./projects/project-service.js";
import { ProjectStore } from "./projects/project-store.js";
import { AnalysisCapacity } from "./reports/analysis-capacity.js";
import { HistoryService } from "./reports/history-service.js";
import { reportJson } from "./reports/present.js";
import { ReportService } from "./reports/report-service.js";
import { AnalysisStore } from "./store/analysis-store.js";
import { ReportStore } from "./store/report-store.js";
import { SecretBox } from "./store/secret-box.js";
import { sharedSecret } from "./store/secrets.js";
import type { Store } from "./store/store.js";
import { TeamService } from "./teams/team-service.js";
import { TeamStore } from "./teams/team-store.js";
import { WebhookEvents } from "./webhooks/webhook-events.js";
import { WebhookService } from "./webhooks/webhook-service.js";
import { WebhookStore } from "./webhooks/webhook-store.js";

export interface ServiceDependencies {
  store: Store;
  analyzer: Analyzer;
  config: ServiceConfig;
  jobs: JobQueue;
}

export interface Services extends ServiceDependencies {
  reportStore: ReportStore;
  reports: ReportService;
  history: HistoryService;
  projects: ProjectService;
  accounts: AccountService;
  sessions: SessionService;
  /** Who is told when an analysis is stored or a crawl ends: the webhooks, then the crawl notification mails. */
  events: EventSink;
  webhookStore: WebhookStore;
  webhooks: WebhookService;
  secrets: SecretBox;
  crawlStores: CrawlStores;
  crawls: CrawlService;
  crawlFindings: CrawlFindings;
  /** Crawls' shared audits: who may see them and what they hold. */
  crawlAudits: CrawlAudits;
  /** The brand name and logo shown instead of pagegrade's on audits and PDFs. */
  brandings: Brandings;
  /** The mail outbox (src/mail/): not set up without the mail settings. */
  mailStore: MailStore;
  mail: MailOutbox;
  passwordResets: PasswordResets;
  /** Crawl notification settings per project and their unsubscribe links (src/notifications/). */
  notifications: NotificationSettings;
  /** Teams, their members, invitations and activity (src/teams/). */
  teams: TeamService;
}

export function createServices(dependencies: ServiceDependencies): Services {
  const { store, analyzer, config, jobs } = dependencies;
  const reportStore = new ReportStore(store, { historyLimit: config.historyLimit });
  const history = new HistoryService(reportStore, new AnalysisStore(store));
  const webhookStore = new WebhookStore(store);
  const crawlStores = openCrawlStores(store);
  const secrets = new SecretBox(config.encryptionKey);
  const crawlComparison = new CrawlComparison(crawlStores.crawls, crawlStores.diffs);
  const changeSummaries = new CrawlChangeSummaries(crawlComparison, crawlStores.summaries, crawlStores.diffs);
  const crawls = new CrawlService(
    crawlStores.crawls,
    crawlStores.listings,
    jobs,
    analyzer,
    config.crawls,
    secrets,
    crawlComparison,
    changeSummaries,
  );
  const crawlFindings = new CrawlFindings(crawlStores.rollups, crawlStores.links, crawlStores.listings);
  const webhookEvents = new WebhookEvents({
    webhooks: webhookStore,
    history,
    jobs,
    regressionScoreDrop: config.regressionScoreDrop,
    workspaceOf: {
      report: (userId, reportId) => reportStore.workspaceOfReport(userId, reportId),
      crawl: (userId, crawlId) => crawlStores.crawls.workspaceOfCrawl(userId, crawlId),
    },
    reportObject: async (workspace, reportId) => {
      const row = await reportStore.findForDisplay(workspace, reportId);
      return row ? reportJson(row, { results: false }) : null;
    },
    crawlObject: async (workspace, crawlId) => {
      const crawl = await crawlStores.crawls.find(workspace, crawlId);
      return crawl ? crawlObject(crawl) : null;
    },
    crawlRegression: async (workspace, crawlId, scoreDrop) => {
      const diff = await crawlComparison.diff(workspace, crawlId);
      return diff && isSiteRegression(diff, scoreDrop) ? shortenedDiff(diff, 20) : null;
    },
  });
  const accounts = new AccountService(store);
  const sessions = new SessionService(store);
  const mailStore = new MailStore(store);
  const mail = new MailOutbox(config.mail, mailStore, jobs);
  const notifications = new NotificationSettings(
    new NotificationStore(store),
    mail,
    new UnsubscribeTokens(() => sharedSecret(store, "notification-unsubscribe")),
    mailStore,
  );
  const events = everySink([
    webhookEvents,
    new CrawlNotifications({
      settings: notifications,
      crawls: crawlStores.crawls,
      comparison: crawlComparison,
      mail,
      regressionScoreDrop: config.regressionScoreDrop,
    }),
  ]);
  return {
    ...dependencies,
    mailStore,
    mail,
    notifications,
    passwordResets: new PasswordResets(store, accounts, sessions, mail, jobs),
    teams: new TeamService(new TeamStore(store), mail),
    reportStore,
    events,
    webhookStore,
    secrets,
    webhooks: new WebhookService(webhookStore, jobs, secrets, analyzer.outbound().guard),
    crawlStores,
    crawls,
    crawlFindings,
    crawlAudits: new CrawlAudits(new CrawlAuditStore(store), crawls, crawlFindings),
    brandings: new Brandings(new BrandingStore(store)),
    reports: new ReportService({
      reports: reportStore,
      analyzer,
      capacity: new AnalysisCapacity(config.maxConcurrentAnalyses),
      jobs,
      scheduleIntervals: config.scheduleIntervals,
      events,
    }),
    history,
    projects: new ProjectService(new ProjectStore(store), analyzer.scoring),
    accounts,
    sessions,
  };
}
