/** What the API's routes are given: the services, and the quota hooks for calls that cost (src/limits/quotas.ts). */
import type { FastifyRequest, preHandlerAsyncHookHandler } from "fastify";
import type { AccountService } from "../../../accounts/account-service.js";
import type { CrawlFindings } from "../../../crawls/crawl-findings.js";
import type { CrawlService } from "../../../crawls/crawl-service.js";
import type { QuotaKind, Quotas } from "../../../limits/quotas.js";
import type { ProjectService } from "../../../projects/project-service.js";
import type { HistoryService } from "../../../reports/history-service.js";
import type { ReportService } from "../../../reports/report-service.js";
import type { WebhookService } from "../../../webhooks/webhook-service.js";
import type { ResponseCache } from "../../response-cache.js";
import type { ApiAccess } from "./access.js";

export interface ApiContext {
  reports: ReportService;
  history: HistoryService;
  projects: ProjectService;
  accounts: AccountService;
  webhooks: WebhookService;
  crawls: CrawlService;
  crawlFindings: CrawlFindings;
  /** The caller's workspace and the resources its paths name (404 for another's, error-handling.ts answers). */
  access: ApiAccess;
  /** Finished responses of the reports list and show, valid while their owner's reports version holds. */
  responses: ResponseCache;
  /** Aborted when the service starts shutting down: long-lived responses end. */
  closing: AbortSignal;
  /** The quotas the web pages apply too; the event streams take their places here. */
  quotas: Quotas;
  limits: {
    /** Counts the call against the caller's quota of the kind (429 past it). */
    charge(kind: QuotaKind): preHandlerAsyncHookHandler;
    /** Counts the call only when the predicate holds (an update with results=1). */
    chargeWhen(kind: QuotaKind, predicate: (request: FastifyRequest) => boolean): preHandlerAsyncHookHandler;
  };
}
