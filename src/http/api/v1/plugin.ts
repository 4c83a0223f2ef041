/**
 * The /api/v1 scope: authentication and the per-key request limit on every call, request normalisation,
 * and the resource routes.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { AccountService } from "../../../accounts/account-service.js";
import type { Brandings } from "../../../branding/brandings.js";
import type { CrawlAudits } from "../../../crawls/crawl-audits.js";
import type { CrawlFindings } from "../../../crawls/crawl-findings.js";
import type { CrawlService } from "../../../crawls/crawl-service.js";
import type { QuotaKind, Quotas } from "../../../limits/quotas.js";
import type { RateLimiter } from "../../../limits/rate-limiter.js";
import type { NotificationSettings } from "../../../notifications/notification-settings.js";
import type { ProjectService } from "../../../projects/project-service.js";
import type { HistoryService } from "../../../reports/history-service.js";
import type { ReportService } from "../../../reports/report-service.js";
import type { TeamService } from "../../../teams/team-service.js";
import type { WebhookService } from "../../../webhooks/webhook-service.js";
import { authenticate } from "../../authentication.js";
import { problems, sendProblem } from "../../problem.js";
import { rateLimitHeaders } from "../../rate-limit-headers.js";
import { normaliseRequest } from "../../request-normalisation.js";
import type { ResponseCache } from "../../response-cache.js";
import { apiAccess, recordTeamChanges } from "./access.js";
import { analysisRoutes } from "./analyses/routes.js";
import { brandingRoutes } from "./branding-routes.js";
import type { ApiContext } from "./context.js";
import { type AuditPdfs, crawlAuditRoutes } from "./crawls/audit-routes.js";
import { crawlFindingsRoutes } from "./crawls/findings-routes.js";
import { crawlRoutes } from "./crawls/routes.js";
import { metaRoutes } from "./meta/routes.js";
import { notificationRoutes } from "./projects/notification-routes.js";
import { projectRoutes } from "./projects/routes.js";
import { type ReportPdfs, reportPdfRoutes } from "./reports/pdf-routes.js";
import { reportRoutes } from "./reports/routes.js";
import { reportScreenshotRoutes } from "./reports/screenshot-routes.js";
import { teamRoutes } from "./teams/routes.js";
import { webhookRoutes } from "./webhooks/routes.js";

export interface ApiOptions {
  reports: ReportService;
  history: HistoryService;
  projects: ProjectService;
  accounts: AccountService;
  webhooks: WebhookService;
  crawls: CrawlService;
  crawlFindings: CrawlFindings;
  teams: TeamService;
  /** Crawls' shared audits (privacy, password) and their PDFs. */
  crawlAudits: CrawlAudits;
  auditPdfs: AuditPdfs;
  brandings: Brandings;
  /** Crawl notification settings per project. */
  notifications: NotificationSettings;
  /** null when the limit is off. */
  requestLimiter: RateLimiter | null;
  /** Analyses, crawl starts, pings, PDFs and event streams, counted per user as on the web pages. */
  quotas: Quotas;
  authFailureLimiter: RateLimiter | null;
  responses: ResponseCache;
  /** Prints reports as PDFs. */
  pdfs: ReportPdfs;
  /** Aborted when the service starts shutting down. */
  closing: AbortSignal;
}

export async function apiV1(app: FastifyInstance, options: ApiOptions): Promise<void> {
  const { requestLimiter, quotas } = options;
  app.addHook("onRequest", authenticate(options.accounts, options.authFailureLimiter));
  if (requestLimiter) {
    app.addHook("onRequest", async (request, reply) => {
      if (!request.account) return;
      const verdict = await requestLimiter.hit(String(request.apiKeyId));
      reply.headers(rateLimitHeaders(verdict, "requests"));
      if (!verdict.allowed) {
        reply.header("retry-after", String(verdict.retryAfterSeconds));
        const { limit, windowSeconds, retryAfterSeconds } = verdict;
        const refusal = { name: "requests" as const, limit, windowSeconds, retryAfterSeconds, verdict };
        return sendProblem(request, reply, problems.tooManyRequests(refusal));
      }
    });
  }
  app.addHook("preValidation", normaliseRequest);

  const charge = (kind: QuotaKind) => async (request: FastifyRequest) =>
    quotas.charge(kind, { userId: request.account.id });
  const access = apiAccess(options);
  recordTeamChanges(app, access, options.teams);
  const context: ApiContext = {
    reports: options.reports,
    history: options.history,
    projects: options.projects,
    accounts: options.accounts,
    webhooks: options.webhooks,
    crawls: options.crawls,
    crawlFindings: options.crawlFindings,
    access,
    responses: options.responses,
    closing: options.closing,
    quotas,
    limits: {
      charge,
      chargeWhen: (kind, predicate) => async (request) => {
        if (predicate(request)) await charge(kind)(request);
      },
    },
  };
  await reportRoutes(app, context);
  await reportPdfRoutes(app, { ...context, pdfs: options.pdfs });
  await reportScreenshotRoutes(app, context);
  await analysisRoutes(app, context);
  await projectRoutes(app, context);
  await notificationRoutes(app, { access: context.access, notifications: options.notifications });
  await metaRoutes(app, context);
  await webhookRoutes(app, context);
  await crawlRoutes(app, context);
  await crawlFindingsRoutes(app, context);
  await app.register(teamRoutes, {
    teams: options.teams,
    chargeTeamCreation: charge("team-creations"),
    chargeInvitation: charge("invitations"),
  });
  await crawlAuditRoutes(app, { ...context, audits: options.crawlAudits, auditPdfs: options.auditPdfs });
  await brandingRoutes(app, { brandings: options.brandings, access: context.access });
}
