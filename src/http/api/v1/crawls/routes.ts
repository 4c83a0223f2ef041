/**
 * /api/v1/crawls: create (202), list, show, cancel, delete, the pages and issues (JSON pages, or every row as
 * CSV with `Accept: text/csv`, streamed: the issues one row per finding item), the comparison with an earlier
 * crawl, and the progress feed as a `text/event-stream`.
 */

import type { FastifyInstance, FastifyRequest } from "fastify";
import { CrawlNotComplete } from "../../../../crawls/crawl-diff.js";
import { streamCrawlEvents } from "../../../../crawls/crawl-event-stream.js";
import { CrawlFinished, type CrawlInput, CrawlLimitReached } from "../../../../crawls/crawl-service.js";
import { apiFindingUrlsPath } from "../../../../crawls/finding-url-lists.js";
import {
  crawlObject,
  crawlPageObject,
  crawlSummaryObject,
  extractionNames,
  listedSiteIssueObject,
} from "../../../../crawls/present.js";
import { crawlLimitRefusal, QuotaExceeded } from "../../../../limits/quotas.js";
import type { CrawlStatus } from "../../../../store/schema.js";
import { sendPage } from "../../../pagination.js";
import { problems, sendProblem } from "../../../problem.js";
import { sendCsvStream } from "../../../send-csv.js";
import type { ApiContext } from "../context.js";
import {
  cancelCrawl,
  crawlEvents,
  createCrawl,
  deleteCrawl,
  listCrawlIssues,
  listCrawlPages,
  listCrawls,
  showCrawl,
  showCrawlDiff,
} from "./schema.js";

interface PageQuery {
  per_page?: number;
  page?: number;
}

/** A crawl's body may carry a list of URLs (up to max_pages of them): 1 MiB, where other bodies get 16 KiB. */
export const crawlBodyLimit = 1024 * 1024;

export async function crawlRoutes(
  app: FastifyInstance,
  { crawls, crawlFindings, ownedCrawl: owned, closing, quotas }: ApiContext,
): Promise<void> {
  const wantsCsv = (request: FastifyRequest) => /\btext\/csv\b/.test(request.headers.accept ?? "");

  // The crawl-starts quota is charged by the service once the crawl is valid: a refused crawl costs no start.
  app.post<{ Body: CrawlInput }>(
    "/crawls",
    { schema: createCrawl, bodyLimit: crawlBodyLimit },
    async (request, reply) => {
      const userId = request.account.id;
      try {
        const crawl = await crawls.create(userId, request.body, () =>
          quotas.charge("crawl-starts", { userId }),
        );
        return reply
          .code(202)
          .header("location", `/api/v1/crawls/${crawl.id}`)
          .send({ data: crawlObject(crawl), status: 202 });
      } catch (error) {
        if (!(error instanceof CrawlLimitReached)) throw error;
        throw new QuotaExceeded(crawlLimitRefusal(error.limit), "user");
      }
    },
  );

  app.get<{ Querystring: PageQuery & { project?: string; status?: CrawlStatus; sort?: "asc" | "desc" } }>(
    "/crawls",
    { schema: listCrawls },
    async (request, reply) => {
      const query = request.query;
      const page = query.page ?? 1;
      const perPage = query.per_page ?? 10;
      const direction = query.sort ?? "desc";
      const { rows, total } = await crawls.list(request.account.id, {
        ...(query.project !== undefined ? { project: query.project } : {}),
        ...(query.status !== undefined ? { status: query.status } : {}),
        direction,
        limit: perPage,
        offset: (page - 1) * perPage,
      });
      const params: Array<[string, string]> = [];
      if (query.project !== undefined) params.push(["project", query.project]);
      if (query.status !== undefined) params.push(["status", query.status]);
      params.push(["sort_by", "id"], ["sort", direction], ["per_page", String(perPage)]);
      // Summaries: a list crawl's URLs are counted here and shown by GET /crawls/{id} only.
      const items = rows.map((row) => JSON.stringify(crawlSummaryObject(row)));
      return sendPage(request, reply, { page, perPage, params }, items, total);
    },
  );

  app.get<{ Params: { id: number } }>("/crawls/:id", { schema: showCrawl }, async (request, reply) => {
    const crawl = await owned(request, reply);
    return crawl && reply.send({ data: crawlObject(crawl), status: 200 });
  });

  app.post<{ Params: { id: number } }>(
    "/crawls/:id/cancel",
    { schema: cancelCrawl },
    async (request, reply) => {
      try {
        const crawl = await crawls.cancel(request.account.id, request.params.id);
        if (!crawl) return sendProblem(request, reply, problems.notFound());
        return reply.send({ data: crawlObject(crawl), status: 200 });
      } catch (error) {
        if (!(error instanceof CrawlFinished)) throw error;
        return sendProblem(request, reply, problems.conflict(error.message));
      }
    },
  );

  app.delete<{ Params: { id: number } }>("/crawls/:id", { schema: deleteCrawl }, async (request, reply) => {
    if (!(await crawls.delete(request.account.id, request.params.id))) {
      return sendProblem(request, reply, problems.notFound());
    }
    return reply.send({ id: request.params.id, object: "crawl", deleted: true, status: 200 });
  });

  app.get<{ Params: { id: number }; Querystring: PageQuery }>(
    "/crawls/:id/pages",
    { schema: listCrawlPages },
    async (request, reply) => {
      const crawl = await owned(request, reply);
      if (!crawl) return reply;
      if (wantsCsv(request)) {
        return sendCsvStream(
          reply,
          `crawl-${crawl.id}-pages.csv`,
          crawlFindings.pagesCsv(crawl.id, extractionNames(crawl)),
        );
      }
      const page = request.query.page ?? 1;
      const perPage = request.query.per_page ?? 10;
      const [rows, total] = await Promise.all([
        crawls.pages(crawl.id, { limit: perPage, offset: (page - 1) * perPage }),
        crawls.pageCount(crawl.id),
      ]);
      const names = extractionNames(crawl);
      const items = rows.map((row) => JSON.stringify(crawlPageObject(row, names)));
      return sendPage(
        request,
        reply,
        { page, perPage, params: [["per_page", String(perPage)]] },
        items,
        total,
      );
    },
  );

  app.get<{ Params: { id: number }; Querystring: PageQuery }>(
    "/crawls/:id/issues",
    { schema: listCrawlIssues },
    async (request, reply) => {
      const crawl = await owned(request, reply);
      if (!crawl) return reply;
      if (wantsCsv(request)) {
        return sendCsvStream(reply, `crawl-${crawl.id}-issues.csv`, crawlFindings.issuesCsv(crawl.id));
      }
      const all = (await crawls.issues(crawl.id)).map((row) =>
        listedSiteIssueObject(row, apiFindingUrlsPath),
      );
      const page = request.query.page ?? 1;
      const perPage = request.query.per_page ?? 10;
      const items = all.slice((page - 1) * perPage, page * perPage).map((item) => JSON.stringify(item));
      return sendPage(
        request,
        reply,
        { page, perPage, params: [["per_page", String(perPage)]] },
        items,
        all.length,
      );
    },
  );

  app.get<{ Params: { id: number }; Querystring: { from?: number } }>(
    "/crawls/:id/diff",
    { schema: showCrawlDiff },
    async (request, reply) => {
      try {
        const diff = await crawls.comparison.diff(request.account.id, request.params.id, request.query.from);
        if (!diff) return sendProblem(request, reply, problems.notFound());
        return reply.send({ data: diff, status: 200 });
      } catch (error) {
        if (!(error instanceof CrawlNotComplete)) throw error;
        return sendProblem(request, reply, problems.conflict(error.message));
      }
    },
  );

  app.get<{ Params: { id: number } }>(
    "/crawls/:id/events",
    { schema: crawlEvents },
    async (request, reply) => {
      const first = await owned(request, reply);
      if (!first) return reply;
      // Each stream holds a connection and polls the database: a user has a few at once (429 beyond).
      const release = quotas.openStream(request.account.id);
      reply.hijack();
      await streamCrawlEvents(request.raw, reply.raw, request.id, {
        reload: () => crawls.showSummary(request.account.id, first.id),
        closing,
        release,
      });
    },
  );
}
