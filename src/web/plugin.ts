/**
 * The web pages: cookies (only pages use them, so API requests skip the cookie hooks), session and CSRF context
 * for every page, then the page routes.
 */
import cookie from "@fastify/cookie";
import type { FastifyInstance } from "fastify";
import type { AccountService } from "../accounts/account-service.js";
import type { SessionService } from "../accounts/session-service.js";
import type { Analyzer } from "../analysis/analyse.js";
import type { CrawlService } from "../crawls/crawl-service.js";
import type { Quotas } from "../limits/quotas.js";
import type { RateLimiter } from "../limits/rate-limiter.js";
import type { ProjectService } from "../projects/project-service.js";
import type { HistoryService } from "../reports/history-service.js";
import type { ReportAccess } from "../reports/report-access.js";
import type { ReportService } from "../reports/report-service.js";
import type { WebhookService } from "../webhooks/webhook-service.js";
import { accountRoutes } from "./account-routes.js";
import { crawlRoutes } from "./crawl-routes.js";
import { historyRoutes } from "./history-routes.js";
import type { PdfRenderer } from "./pdf/pdf-renderer.js";
import { pdfRoutes } from "./pdf-routes.js";
import { reportRoutes } from "./report-routes.js";
import { siteRoutes } from "./site-routes.js";
import { loadWebContext } from "./web-context.js";
import { webhookRoutes } from "./webhook-routes.js";

export interface WebOptions {
  accounts: AccountService;
  sessions: SessionService;
  reports: ReportService;
  history: HistoryService;
  projects: ProjectService;
  access: ReportAccess;
  loginFailures: RateLimiter;
  /** The same quotas as the API's (src/limits/quotas.ts). */
  quotas: Quotas;
  pdfs: PdfRenderer;
  webhooks: WebhookService;
  crawls: CrawlService;
  analyzer: Analyzer;
}

export async function webPages(app: FastifyInstance, options: WebOptions): Promise<void> {
  // Pages are not part of the API: keep them out of the OpenAPI document.
  app.addHook("onRoute", (route) => {
    route.schema = { ...route.schema, hide: true };
  });
  await app.register(cookie);
  app.addHook("preHandler", loadWebContext(options.sessions));
  await siteRoutes(app, options);
  await accountRoutes(app, options);
  await reportRoutes(app, options);
  await historyRoutes(app, options);
  await pdfRoutes(app, options);
  await webhookRoutes(app, options);
  await crawlRoutes(app, options);
}
