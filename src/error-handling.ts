/**
 * Maps every error to its answer, a problem object under /api and a page (the web's, handed in by app.ts)
 * everywhere else: the one place domain errors (errors.ts `DomainError`: a stable code and an HTTP status) become
 * responses, so no handler catches one to translate it. A resource missing or outside the caller's workspace is
 * a 404 (the same as an unknown path), a viewer's write a 403, schema findings and domain rule breaks a 422, a
 * page that cannot be analysed a 422 on url with its reason, a quota reached (a user's crawl limit too) a 429
 * naming the limit, a conflict with a resource's state a 409, full analysis capacity a 503, body problems
 * 400/413/415, and anything unexpected a 500 whose detail goes to the log under the request id, never to the
 * client. Composition: it picks between the two faces, so neither needs the other.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { CrawlLimitReached } from "./crawls/crawl-service.js";
import {
  AccessDenied,
  AnalysisFailed,
  CapacityExceeded,
  Conflict,
  DomainError,
  ResourceNotFound,
  ValidationFailed,
} from "./errors.js";
import { problems, sendProblem } from "./http/problem.js";
import { refusalHeaders } from "./http/rate-limit-headers.js";
import { type SchemaError, validationMessages } from "./http/validation-messages.js";
import { crawlLimitRefusal, QuotaExceeded } from "./limits/quotas.js";

/** The pages the web answers errors with (web/error-pages.ts). */
export interface ErrorPages {
  notFound(request: FastifyRequest, reply: FastifyReply, status: number): FastifyReply;
  error(
    request: FastifyRequest,
    reply: FastifyReply,
    page: { title: string; heading: string; message: string },
    status: number,
  ): FastifyReply;
}

export function installErrorHandling(app: FastifyInstance, bodyLimit: number, pages: ErrorPages): void {
  app.setErrorHandler((raised: FastifyError, request, reply) => {
    // A user's crawl limit is refused as every quota is: the limit, its number and when to retry.
    const error =
      raised instanceof CrawlLimitReached
        ? new QuotaExceeded(crawlLimitRefusal(raised.limit), "user")
        : (raised as FastifyError | DomainError);
    if (error instanceof ResourceNotFound) {
      return isApi(request)
        ? sendProblem(request, reply, problems.notFound())
        : pages.notFound(request, reply, 404);
    }
    if (error instanceof QuotaExceeded) {
      reply.headers(refusalHeaders(error.refusal));
      if (!isApi(request)) {
        return pages.error(
          request,
          reply,
          { title: "Too many requests", heading: "Please slow down", message: error.message },
          429,
        );
      }
      return sendProblem(request, reply, problems.tooManyRequests(error.refusal, error.message));
    }
    if (!isApi(request)) return webError(request, reply, error, pages);
    if (error instanceof DomainError) return sendProblem(request, reply, domainProblem(error, reply));
    if (error.validation) {
      // A path parameter of the wrong shape (/reports/abc) names no resource.
      if (error.validationContext === "params") return sendProblem(request, reply, problems.notFound());
      return sendProblem(
        request,
        reply,
        problems.validation(validationMessages(error.validation as SchemaError[])),
      );
    }
    switch (error.code) {
      case "FST_ERR_CTP_BODY_TOO_LARGE":
        // The limit of the route the body was sent to (a crawl's list of URLs may be larger than other bodies).
        return sendProblem(request, reply, problems.tooLarge(request.routeOptions.bodyLimit ?? bodyLimit));
      case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
        return sendProblem(request, reply, problems.unsupportedMediaType());
      case "FST_ERR_CTP_INVALID_JSON_BODY":
      case "FST_ERR_CTP_EMPTY_JSON_BODY":
        return sendProblem(request, reply, problems.badRequest("The request body is not valid JSON."));
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return sendProblem(request, reply, { ...problems.badRequest("The request is malformed."), status });
    }
    request.log.error({ err: error }, "unexpected error");
    return sendProblem(request, reply, problems.internal());
  });
}

/**
 * Errors the router raises before any route runs: a path that is not valid percent-encoding (400) or a path
 * parameter longer than the router accepts (404: no resource has such a name).
 */
export function frameworkErrors(
  pages: ErrorPages,
): (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => FastifyReply {
  return (error, request, reply) => {
    const status = error.code === "FST_ERR_MAX_PARAM_LENGTH" ? 404 : 400;
    if (!isApi(request)) {
      return pages.notFound(request, reply, status);
    }
    return sendProblem(
      request,
      reply,
      status === 404 ? problems.notFound() : problems.badRequest("The request path is malformed."),
    );
  };
}

/** 404 for unknown paths (405 with Allow when the path exists under another method). */
export function installNotFound(app: FastifyInstance, pages: ErrorPages): void {
  const routes: Array<{ pattern: RegExp; methods: Set<string> }> = [];
  app.addHook("onRoute", (route) => {
    const pattern = new RegExp(`^${route.url.replace(/:[^/]+/g, "[^/]+")}/?$`);
    let entry = routes.find((existing) => existing.pattern.source === pattern.source);
    if (!entry) {
      entry = { pattern, methods: new Set() };
      routes.push(entry);
    }
    for (const method of [route.method].flat()) entry.methods.add(method);
  });
  const answerApi = (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split("?")[0] ?? "";
    const match = routes.find((route) => route.pattern.test(path));
    if (match && !match.methods.has(request.method)) {
      reply.header("allow", [...match.methods].sort().join(", "));
      return sendProblem(request, reply, problems.methodNotAllowed());
    }
    return sendProblem(request, reply, problems.notFound());
  };
  // The path and method are judged before the body: a wrong method or an unknown path is a 405 or 404 whatever
  // the body holds (broken JSON, a wrong media type, too many bytes), and before any key is checked.
  app.addHook("onRequest", (request, reply, done) => {
    if (request.is404 && isApi(request)) return answerApi(request, reply);
    done();
  });
  app.setNotFoundHandler((request, reply) =>
    isApi(request) ? answerApi(request, reply) : pages.notFound(request, reply, 404),
  );
}

/** A domain error's problem object (headers it needs set on the reply). */
function domainProblem(error: DomainError, reply: FastifyReply) {
  if (error instanceof ValidationFailed) return problems.validation(error.errors);
  if (error instanceof AnalysisFailed) {
    return problems.validation({ url: [error.failure.message] }, { reason: error.failure.reason });
  }
  if (error instanceof CapacityExceeded) {
    reply.header("retry-after", String(error.retryAfterSeconds));
    return problems.unavailable();
  }
  if (error instanceof AccessDenied) return problems.forbidden(error.roleNeeded);
  if (error instanceof Conflict) return problems.conflict(error.message);
  return problems.domain(error.status, error.code, error.message);
}

function isApi(request: FastifyRequest): boolean {
  return request.url === "/api" || request.url.startsWith("/api/");
}

/** Errors on web pages get a page, never JSON and never exception text. */
function webError(
  request: FastifyRequest,
  reply: FastifyReply,
  error: FastifyError | DomainError,
  pages: ErrorPages,
): FastifyReply {
  if (error instanceof DomainError) {
    // Our own message, written for people: a page with the error's status.
    const heading = error instanceof AccessDenied ? "You may not change this" : "This cannot be done";
    return pages.error(
      request,
      reply,
      { title: "Not possible", heading, message: error.message },
      error.status,
    );
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    const message = status === 413 ? "The form sent too much data." : "The request could not be understood.";
    return pages.error(
      request,
      reply,
      { title: "Bad request", heading: "Something is wrong with this request", message },
      status,
    );
  }
  request.log.error({ err: error }, "unexpected error");
  return pages.error(
    request,
    reply,
    {
      title: "Error",
      heading: "Something went wrong",
      message: "An unexpected error has occurred. Try again in a moment.",
    },
    500,
  );
}
