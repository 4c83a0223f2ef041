/**
 * The web pages: cookies (only pages use them, so API requests skip the cookie hooks), then the hooks of every
 * page (session and CSRF token loaded; a state-changing request without the token refused, csrf.ts), the pages
 * anyone may open, and the signed-in scope, whose hook sends a visitor without a session to /login
 * (signed-in.ts). Which scope a page family is in is decided here, once.
 */
import cookie from "@fastify/cookie";
import type { FastifyInstance } from "fastify";
import type { AccountService } from "../accounts/account-service.js";
import type { PasswordResets } from "../accounts/password-resets.js";
import type { SessionService } from "../accounts/session-service.js";
import type { Analyzer } from "../analysis/analyse.js";
import type { Brandings } from "../branding/brandings.js";
import type { CrawlAudits } from "../crawls/crawl-audits.js";
import type { CrawlFindings } from "../crawls/crawl-findings.js";
import type { CrawlService } from "../crawls/crawl-service.js";
import type { CrawlRow } from "../crawls/crawl-store.js";
import type { Quotas } from "../limits/quotas.js";
import type { RateLimiter } from "../limits/rate-limiter.js";
import type { NotificationSettings } from "../notifications/notification-settings.js";
import type { ProjectService } from "../projects/project-service.js";
import type { HistoryService } from "../reports/history-service.js";
import type { PasswordGate } from "../reports/password-gate.js";
import type { ReportAccess } from "../reports/report-access.js";
import type { ReportService } from "../reports/report-service.js";
import type { TeamService } from "../teams/team-service.js";
import type { WebhookService } from "../webhooks/webhook-service.js";
import { accountRoutes } from "./account-routes.js";
import { apiDocs } from "./api-docs.js";
import { auditRoutes } from "./audit-routes.js";
import { crawlFindingsRoutes } from "./crawl-findings-routes.js";
import { crawlRoutes } from "./crawl-routes.js";
import { refuseForgedForms } from "./csrf.js";
import { dashboardRoutes } from "./dashboard-routes.js";
import { historyRoutes } from "./history-routes.js";
import { notificationRoutes } from "./notification-routes.js";
import { passwordResetRoutes } from "./password-reset-routes.js";
import type { AuditPrinter } from "./pdf/audit-printer.js";
import type { ReportPrinter } from "./pdf/report-printer.js";
import { pdfRoutes } from "./pdf-routes.js";
import { projectRoutes } from "./project-routes.js";
import { reportManageRoutes } from "./report-manage-routes.js";
import { reportVisitRoutes } from "./report-visit-routes.js";
import { signInRoutes } from "./sign-in-routes.js";
import { requireSignIn } from "./signed-in.js";
import { siteRoutes } from "./site-routes.js";
import { invitationLinkRoute, teamRoutes } from "./team-routes.js";
import { unsubscribeRoutes } from "./unsubscribe-routes.js";
import { webAccess } from "./web-access.js";
import { loadWebContext, maxSwitcherTeams } from "./web-context.js";
import { webhookRoutes } from "./webhook-routes.js";
import { workspaceRoutes } from "./workspace-routes.js";

export interface WebOptions {
  accounts: AccountService;
  sessions: SessionService;
  reports: ReportService;
  history: HistoryService;
  projects: ProjectService;
  access: ReportAccess;
  loginFailures: RateLimiter;
  /** Password resets by e-mail (/forgot-password), and their requests' limit per address and per client. */
  passwordResets: PasswordResets;
  resetRequests: RateLimiter;
  /** The same quotas as the API's (src/limits/quotas.ts). */
  quotas: Quotas;
  pdfs: ReportPrinter;
  webhooks: WebhookService;
  crawls: CrawlService;
  crawlFindings: CrawlFindings;
  teams: TeamService;
  /** Crawls' shared audits, and who may see them. */
  audits: CrawlAudits;
  auditAccess: PasswordGate<CrawlRow>;
  auditPdfs: AuditPrinter;
  /** Owners' brand names and logos, on their audit pages. */
  brandings: Brandings;
  /** Crawl notification settings, and the unsubscribe links of their mails. */
  notifications: NotificationSettings;
  analyzer: Analyzer;
  /** Aborted when the service closes (ends the crawl pages' event streams). */
  closing: AbortSignal;
}

export async function webPages(app: FastifyInstance, options: WebOptions): Promise<void> {
  // Pages are not part of the API: keep them out of the OpenAPI document.
  app.addHook("onRoute", (route) => {
    route.schema = { ...route.schema, hide: true };
  });
  await app.register(cookie);
  app.addHook(
    "preHandler",
    loadWebContext(options.sessions, (userId) => options.teams.choices(userId, maxSwitcherTeams)),
  );
  app.addHook("preHandler", refuseForgedForms);

  // Anyone: the site, signing in, and a report's own pages (report-visit.ts decides who sees a report).
  await siteRoutes(app);
  await apiDocs(app);
  await signInRoutes(app, options);
  await passwordResetRoutes(app, options);
  await reportVisitRoutes(app, options);
  await historyRoutes(app, options);
  await pdfRoutes(app, options);
  await invitationLinkRoute(app);
  await auditRoutes(app, options);
  await unsubscribeRoutes(app, options);

  // The signed-in pages' resources, loaded within the workspace the user chose (web-access.ts).
  const signedInOptions = { ...options, resources: webAccess(options) };
  await app.register(async (signedIn) => {
    signedIn.addHook("preHandler", requireSignIn);
    await dashboardRoutes(signedIn, signedInOptions);
    await reportManageRoutes(signedIn, signedInOptions);
    await projectRoutes(signedIn, signedInOptions);
    await notificationRoutes(signedIn, signedInOptions);
    await accountRoutes(signedIn, options);
    await webhookRoutes(signedIn, signedInOptions);
    await crawlRoutes(signedIn, signedInOptions);
    await crawlFindingsRoutes(signedIn, signedInOptions);
    await teamRoutes(signedIn, options);
    await workspaceRoutes(signedIn);
  });
}
