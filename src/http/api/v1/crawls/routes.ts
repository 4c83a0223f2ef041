/**
 * /api/v1/crawls: create (202), list, show, cancel, delete, the pages and issues (JSON pages, or every row as
 * CSV with `Accept: text/csv`, streamed: the issues one row per finding item), the comparison with an earlier
 * crawl, and the progress feed as a `text/event-stream`.
 */

import type { FastifyInstance } from "fastify";
import { found } from "../../../../accounts/access.js";
import { streamCrawlEvents } from "../../../../crawls/crawl-event-stream.js";
import type { CrawlInput } from "../../../../crawls/crawl-service.js";
import { apiFindingUrlsPath } from "../../../../crawls/finding-url-lists.js";
import {
  crawlObject,
  crawlPageObject,
  crawlSummaryObject,
  extractionNames,
  listedSiteIssueObject,
} from "../../../../crawls/present.js";
import type { CrawlStatus } from "../../../../store/schema.js";
import { sendPage } from "../../../pagination.js";
import type { ApiContext } from "../context.js";
import { crawlListRoute, type PageQuery } from "./crawl-list-route.js";
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

/** A crawl's body may carry a list of URLs (up to max_pages of them): 1 MiB, where other bodies get 16 KiB. */
export const crawlBodyLimit = 1024 * 1024;

export async function crawlRoutes(
  app: FastifyInstance,
  { crawls, crawlFindings, access, closing, quotas }: ApiContext,
): Promise<void> {
  // The crawl-starts quota is charged by the service once the crawl is valid: a refused crawl costs no start.
  app.post<{ Body: CrawlInput }>(
    "/crawls",
    { schema: createCrawl, bodyLimit: crawlBodyLimit },
    async (request, reply) => {
      const workspace = await access.workspace(request, "write");
      const crawl = await crawls.create(workspace, request.body, () =>
        quotas.charge("crawl-starts", { userId: request.account.id }),
      );
      return reply
        .code(202)
        .header("location", `/api/v1/crawls/${crawl.id}`)
        .send({ data: crawlObject(crawl), status: 202 });
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
      const workspace = await access.workspace(request);
      const { rows, total } = await crawls.list(workspace, {
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
    const crawl = await access.crawl(request);
    return reply.send({ data: crawlObject(crawl), status: 200 });
  });

  app.post<{ Params: { id: number } }>(
    "/crawls/:id/cancel",
    { schema: cancelCrawl },
    async (request, reply) => {
      const workspace = await access.workspace(request, "write");
      const crawl = found(await crawls.cancel(workspace, request.params.id));
      return reply.send({ data: crawlObject(crawl), status: 200 });
    },
  );

  app.delete<{ Params: { id: number } }>("/crawls/:id", { schema: deleteCrawl }, async (request, reply) => {
    const workspace = await access.workspace(request, "write");
    found(await crawls.delete(workspace, request.params.id));
    return reply.send({ id: request.params.id, object: "crawl", deleted: true, status: 200 });
  });

  crawlListRoute<{ id: number }, PageQuery>(app, access, {
    url: "/crawls/:id/pages",
    schema: listCrawlPages,
    csv: async (crawl) => ({
      file: `crawl-${crawl.id}-pages.csv`,
      chunks: crawlFindings.pagesCsv(crawl.id, extractionNames(crawl)),
    }),
    page: async (crawl, _request, window) => {
      const [rows, total] = await Promise.all([crawls.pages(crawl.id, window), crawls.pageCount(crawl.id)]);
      const names = extractionNames(crawl);
      return { items: rows.map((row) => JSON.stringify(crawlPageObject(row, names))), total };
    },
  });

  crawlListRoute<{ id: number }, PageQuery>(app, access, {
    url: "/crawls/:id/issues",
    schema: listCrawlIssues,
    csv: async (crawl) => ({
      file: `crawl-${crawl.id}-issues.csv`,
      chunks: crawlFindings.issuesCsv(crawl.id),
    }),
    page: async (crawl, _request, window) => {
      const all = (await crawls.issues(crawl.id)).map((row) =>
        listedSiteIssueObject(row, apiFindingUrlsPath),
      );
      const items = all
        .slice(window.offset, window.offset + window.limit)
        .map((item) => JSON.stringify(item));
      return { items, total: all.length };
    },
  });

  app.get<{ Params: { id: number }; Querystring: { from?: number } }>(
    "/crawls/:id/diff",
    { schema: showCrawlDiff },
    async (request, reply) => {
      const workspace = await access.workspace(request);
      const diff = found(await crawls.comparison.diff(workspace, request.params.id, request.query.from));
      return reply.send({ data: diff, status: 200 });
    },
  );

  app.get<{ Params: { id: number } }>(
    "/crawls/:id/events",
    { schema: crawlEvents },
    async (request, reply) => {
      const first = await access.crawl(request);
      const workspace = await access.workspace(request);
      // Each stream holds a connection and polls the database: a user has a few at once (429 beyond).
      const release = quotas.openStream(request.account.id);
      reply.hijack();
      await streamCrawlEvents(request.raw, reply.raw, request.id, {
        reload: () => crawls.showSummary(workspace, first.id),
        closing,
        release,
      });
    },
  );
}
