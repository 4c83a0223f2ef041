/**
 * Builds the HTTP application (fastify): request ids, logging with secrets redacted, body parsing and limits,
 * the OpenAPI document generated from the route schemas, /healthz, the /api/v1 scope and the web pages, over
 * the services (services.ts) and the job queue the configuration names, whose workers run in this process. Built by a function
 * so tests drive it with inject() and the server start-up lives elsewhere (main.ts).
 */

import { randomUUID } from "node:crypto";
import formbody from "@fastify/formbody";
import swagger from "@fastify/swagger";
import Fastify, { type FastifyInstance } from "fastify";
import type { Analyzer } from "./analysis/analyse.js";
import { brandOwnerOf } from "./branding/branding-store.js";
import { redactedSmtpUrl, type ServiceConfig } from "./config.js";
import { frameworkErrors, installErrorHandling, installNotFound } from "./error-handling.js";
import { analysisSchemas } from "./http/api/v1/analyses/schema.js";
import { Problem } from "./http/api/v1/common-schema.js";
import { findingsSchemas } from "./http/api/v1/crawls/findings-schema.js";
import { crawlSchemas } from "./http/api/v1/crawls/schema.js";
import { apiV1 } from "./http/api/v1/plugin.js";
import { NotificationSettings } from "./http/api/v1/projects/notification-schema.js";
import { Project, ProjectDetail } from "./http/api/v1/projects/schema.js";
import { reportSchemas } from "./http/api/v1/reports/schema.js";
import { withTeamParameter } from "./http/api/v1/team-parameter.js";
import { webhookSchemas } from "./http/api/v1/webhooks/schema.js";
import { ResponseCache } from "./http/response-cache.js";
import { installSecurityHeaders } from "./http/security-headers.js";
import { registerJobs, scheduleJobs } from "./job-registry.js";
import { openJobQueue } from "./jobs/open-job-queue.js";
import { BatchedRateCounters } from "./limits/batched-rate-counters.js";
import { openRateCounters } from "./limits/open-rate-counters.js";
import { Quotas } from "./limits/quotas.js";
import { RateLimiter } from "./limits/rate-limiter.js";
import { PasswordGate } from "./reports/password-gate.js";
import { ReportAccess } from "./reports/report-access.js";
import { createServices } from "./services.js";
import { sharedSecret } from "./store/secrets.js";
import type { Store } from "./store/store.js";
import { errorPages } from "./web/error-pages.js";
import { AuditPrinter } from "./web/pdf/audit-printer.js";
import { ReportPrinter } from "./web/pdf/report-printer.js";
import { webPages } from "./web/plugin.js";

export const bodyLimit = 16 * 1024;
const saneRequestId = /^[A-Za-z0-9._:-]{1,128}$/;

export interface AppDependencies {
  store: Store;
  analyzer: Analyzer;
  config: ServiceConfig;
  /** false silences logs (tests). */
  logger?: boolean;
  /** Where logs go instead of stdout (tests read them). */
  logStream?: NodeJS.WritableStream;
}

export async function buildApp({
  store,
  analyzer,
  config,
  logger = true,
  logStream,
}: AppDependencies): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logger
      ? {
          level: config.logLevel,
          redact: { paths: ["req.headers.authorization", "req.headers.cookie"], censor: "[redacted]" },
          ...(logStream ? { stream: logStream } : {}),
        }
      : false,
    bodyLimit,
    trustProxy: config.trustProxy,
    genReqId: (request) => {
      const sent = request.headers["x-request-id"];
      return typeof sent === "string" && saneRequestId.test(sent) ? sent : randomUUID();
    },
    ajv: { customOptions: { coerceTypes: false, allErrors: true, removeAdditional: false } },
    routerOptions: { maxParamLength: 2048 },
    frameworkErrors: frameworkErrors(errorPages),
  });

  // Hooks that do no I/O take a callback: an async hook costs a promise per request.
  app.addHook("onRequest", (request, reply, done) => {
    reply.header("x-request-id", request.id);
    done();
  });
  // While shutting down, responses ask clients to close their connection, so keep-alive sockets do not hold
  // the server open once the in-flight requests are answered.
  // Long-lived responses (a crawl's event stream) end on `closing`, so they never hold the close either.
  let shuttingDown = false;
  const closing = new AbortController();
  app.addHook("preClose", async () => {
    shuttingDown = true;
    closing.abort();
  });
  app.addHook("onSend", (_request, reply, payload, done) => {
    if (shuttingDown) reply.header("connection", "close");
    done(null, payload);
  });
  installSecurityHeaders(app);
  installNotFound(app, errorPages);
  installErrorHandling(app, bodyLimit, errorPages);
  // Only form and JSON bodies are accepted: fastify's built-in text/plain parser would let anything through.
  app.removeContentTypeParser("text/plain");
  await app.register(formbody, { bodyLimit });
  await app.register(swagger, {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "pagegrade API",
        version: "1.0.0",
        description:
          "Grade web pages and whole sites: reports of single pages with a result (good, decent, bad), their history and re-runs, grouped by project; crawls of a site (site issues, page checks rolled up, links, comparisons with the crawl before); and webhooks that tell your systems when an analysis or a crawl ends. Authenticate with the API key from your account page.",
      },
      servers: [{ url: "/", description: "This pagegrade service" }],
      components: {
        securitySchemes: { bearer: { type: "http", scheme: "bearer", description: "Your API key" } },
      },
      security: [{ bearer: [] }],
    },
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, index) => String(json.$id ?? `def-${index}`),
    },
    // `team={id}` is read by the access seam, not by each route's schema: documented on every workspace operation.
    transformObject: (document) =>
      "openapiObject" in document ? withTeamParameter(document.openapiObject) : document.swaggerObject,
  });
  for (const schema of [
    Problem,
    ...reportSchemas,
    ...analysisSchemas,
    Project,
    ProjectDetail,
    NotificationSettings,
    ...webhookSchemas,
    ...crawlSchemas,
    ...findingsSchemas,
  ]) {
    app.addSchema(schema);
  }

  // The background jobs run in this process too (unless PAGEGRADE_WORKERS=0): they start once the app is ready
  // and, at close, get PAGEGRADE_JOB_GRACE_SECONDS to finish before they are handed back.
  const jobs = await openJobQueue(store, config, (error, context) =>
    app.log.error({ err: error, job: context.job }, "background job failed"),
  );
  const services = createServices({ store, analyzer, config, jobs });
  const { reportStore, accounts, reports, history, projects, sessions, webhooks, crawls, crawlFindings } =
    services;
  registerJobs(services);
  if (config.mail) {
    // The SMTP URL's password is never logged.
    app.log.info({ smtp: redactedSmtpUrl(config.mail.smtpUrl), from: config.mail.from }, "mail is set up");
  } else {
    app.log.info(
      "mail is not set up (PAGEGRADE_SMTP_URL, PAGEGRADE_MAIL_FROM, PAGEGRADE_PUBLIC_URL): password reset by e-mail is off",
    );
  }
  if (!config.encryptionKey) {
    app.log.warn(
      "PAGEGRADE_ENCRYPTION_KEY is not set: webhook signing secrets will be stored unencrypted in the database",
    );
  }
  app.addHook("onReady", async () => {
    await scheduleJobs(services);
    await jobs.start();
  });
  app.addHook("onClose", async () => jobs.close(config.jobGraceSeconds * 1000));
  const counters = await openRateCounters(store, config);
  // Every API request counts against its key: those hits are written in batches (see batched-rate-counters.ts).
  const requestCounters = new BatchedRateCounters(counters, Math.ceil(config.rateLimit / 2));
  app.addHook("onClose", async () => {
    await requestCounters.close();
    await counters.close();
  });
  const limiter = (name: string, limit: number) =>
    limit > 0 ? new RateLimiter(counters, name, limit) : null;
  const requestLimiter =
    config.rateLimit > 0 ? new RateLimiter(requestCounters, "requests", config.rateLimit) : null;
  // Analyses, crawl starts, pings, PDFs, sign-ups and event streams: the same quotas on the API and the pages.
  const quotas = new Quotas(counters, {
    analysesPerMinute: config.analysisRateLimit,
    crawlStartsPerMinute: config.crawlStartRateLimit,
    pingsPerMinute: config.pingRateLimit,
    pdfsPerMinute: config.pdfRateLimit,
    signUpsPerHour: config.signUpRateLimit,
    teamCreationsPerHour: config.teamRateLimit,
    invitationsPerHour: config.invitationRateLimit,
    eventStreamsPerUser: config.eventStreamsPerUser,
  });
  const authFailureLimiter = limiter("auth-failures", config.authFailureLimit);
  // Wrong report passwords: 5 per report and client address in 15 minutes. Failed log-ins: 10 per address
  // and per e-mail in 15 minutes. Always on: they protect secrets, not capacity.
  const reportPasswordFailures = new RateLimiter(counters, "report-passwords", 5, 15 * 60);
  const loginFailures = new RateLimiter(counters, "login-failures", 10, 15 * 60);
  // Password-reset requests: 5 per e-mail address and per client address in 15 minutes (each may send a mail).
  const resetRequests = new RateLimiter(counters, "reset-requests", 5, 15 * 60);
  const sweepers = [
    requestLimiter,
    ...quotas.sweepers(),
    authFailureLimiter,
    reportPasswordFailures,
    loginFailures,
    resetRequests,
  ].filter((candidate): candidate is RateLimiter => candidate !== null);
  const timer = setInterval(() => {
    const warn = (error: unknown) => app.log.warn({ err: error }, "periodic sweep failed");
    // Expired sessions are swept by the maintenance job (src/job-registry.ts).
    for (const sweeper of sweepers) sweeper.sweep().catch(warn);
  }, 60_000);
  timer.unref();
  app.addHook("onClose", async () => clearInterval(timer));

  // Reports as PDFs for the web and the API: the renderer (and playwright-core) is loaded on the first PDF, its
  // one Chromium started then, and closed with the app.
  const pdfs = new ReportPrinter(
    {
      executablePath: config.chromiumPath,
      sandbox: config.chromiumSandbox,
      maxConcurrent: config.maxConcurrentPdfs,
    },
    (workspace) => services.brandings.brandOf(brandOwnerOf(workspace)),
  );
  app.addHook("onClose", async () => pdfs.close());
  const auditPdfs = new AuditPrinter(pdfs, services.crawlAudits, services.brandings);

  await app.register(apiV1, {
    prefix: "/api/v1",
    reports,
    history,
    projects,
    accounts,
    webhooks,
    crawls,
    crawlFindings,
    teams: services.teams,
    crawlAudits: services.crawlAudits,
    auditPdfs,
    brandings: services.brandings,
    notifications: services.notifications,
    requestLimiter,
    quotas,
    authFailureLimiter,
    responses: new ResponseCache(config.responseCacheBytes),
    pdfs,
    closing: closing.signal,
  });

  const accessSecret = await sharedSecret(store, "report-access");
  // A page in a team's workspace is every current member's (the membership memory keeps this cheap and current).
  const roleIn = async (userId: number, teamId: number) =>
    (await services.teams.roleAndVersion(userId, teamId))?.role ?? null;
  await app.register(webPages, {
    accounts,
    sessions,
    reports,
    history,
    projects,
    access: new ReportAccess(reportStore, accessSecret, reportPasswordFailures, roleIn),
    audits: services.crawlAudits,
    auditPdfs,
    brandings: services.brandings,
    // A crawl's audit: the reports' secret and wrong-password limit, its tokens and counts told apart by scope.
    auditAccess: new PasswordGate(
      (id) => services.crawlAudits.find(id),
      accessSecret,
      reportPasswordFailures,
      "crawl",
      roleIn,
    ),
    loginFailures,
    passwordResets: services.passwordResets,
    resetRequests,
    quotas,
    pdfs,
    webhooks,
    crawls,
    crawlFindings,
    teams: services.teams,
    notifications: services.notifications,
    analyzer,
    closing: closing.signal,
  });

  app.get("/api/v1/openapi.json", { schema: { hide: true } }, async (_request, reply) =>
    reply.type("application/json; charset=utf-8").send(JSON.stringify(app.swagger())),
  );

  app.get("/healthz", { schema: { hide: true } }, async (_request, reply) => {
    try {
      await store.db.selectFrom("users").select("id").limit(1).execute();
      await counters.ping();
      await jobs.ping();
      // Chromium's state is information: the service works without it, rendered mode and PDFs refuse clearly.
      return { status: "ok", chromium: analyzer.chromium.state() };
    } catch {
      return reply.code(503).send({ status: "unavailable" });
    }
  });

  return app;
}
