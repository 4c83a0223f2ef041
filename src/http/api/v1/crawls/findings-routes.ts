/**
 * /api/v1/crawls/{id}/checks (the page checks rolled up), /fix-first (page checks and site issues in one
 * ranking), /checks/{check}/pages (a check's affected pages), /issues/{check}/findings/{fingerprint}/urls (a
 * site finding's whole URL list, JSON only) and /links (the internal links): JSON pages, or with `Accept: text/csv` every row, streamed as it is read.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { isPageCheck } from "../../../../crawls/check-rollup.js";
import type { LinkFilter } from "../../../../crawls/crawl-link-store.js";
import { checkPageObject, checkRollupObject, linkObject } from "../../../../crawls/findings-present.js";
import { fixObject } from "../../../../crawls/fix-first.js";
import { sendPage } from "../../../pagination.js";
import { problems, sendProblem } from "../../../problem.js";
import { sendCsvStream } from "../../../send-csv.js";
import type { ApiContext } from "../context.js";
import {
  listCheckPages,
  listCrawlChecks,
  listCrawlLinks,
  listFindingUrls,
  listFixFirst,
} from "./findings-schema.js";

interface PageQuery {
  per_page?: number;
  page?: number;
}

export async function crawlFindingsRoutes(
  app: FastifyInstance,
  { crawlFindings, ownedCrawl: owned }: ApiContext,
): Promise<void> {
  const wantsCsv = (request: FastifyRequest) => /\btext\/csv\b/.test(request.headers.accept ?? "");
  const paging = (query: PageQuery) => {
    const page = query.page ?? 1;
    const perPage = query.per_page ?? 10;
    return { page, perPage, window: { limit: perPage, offset: (page - 1) * perPage } };
  };

  app.get<{ Params: { id: number }; Querystring: PageQuery }>(
    "/crawls/:id/checks",
    { schema: listCrawlChecks },
    async (request, reply) => {
      const crawl = await owned(request, reply);
      if (!crawl) return reply;
      const { page, perPage, window } = paging(request.query);
      const { rows, total } = await crawlFindings.checks(
        crawl.id,
        wantsCsv(request) ? { limit: Number.MAX_SAFE_INTEGER, offset: 0 } : window,
      );
      if (wantsCsv(request)) {
        return sendCsvStream(reply, `crawl-${crawl.id}-checks.csv`, crawlFindings.checksCsv(rows));
      }
      const items = rows.map((row) => JSON.stringify(checkRollupObject(row)));
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
    "/crawls/:id/fix-first",
    { schema: listFixFirst },
    async (request, reply) => {
      const crawl = await owned(request, reply);
      if (!crawl) return reply;
      const { page, perPage, window } = paging(request.query);
      const fixes = await crawlFindings.fixFirst(crawl.id);
      const items = fixes
        .slice(window.offset, window.offset + window.limit)
        .map((fix) => JSON.stringify(fixObject(fix)));
      return sendPage(
        request,
        reply,
        { page, perPage, params: [["per_page", String(perPage)]] },
        items,
        fixes.length,
      );
    },
  );

  app.get<{ Params: { id: number; check: string }; Querystring: PageQuery }>(
    "/crawls/:id/checks/:check/pages",
    { schema: listCheckPages },
    async (request, reply) => {
      const crawl = await owned(request, reply);
      if (!crawl) return reply;
      const check = request.params.check;
      if (!isPageCheck(check)) return sendProblem(request, reply, problems.notFound());
      if (wantsCsv(request)) {
        return sendCsvStream(
          reply,
          `crawl-${crawl.id}-${check}-pages.csv`,
          crawlFindings.checkPagesCsv(crawl.id, check),
        );
      }
      const { page, perPage, window } = paging(request.query);
      const { rows, total } = await crawlFindings.checkPages(crawl.id, check, window);
      const items = rows.map((row) => JSON.stringify(checkPageObject(row)));
      return sendPage(
        request,
        reply,
        { page, perPage, params: [["per_page", String(perPage)]] },
        items,
        total,
      );
    },
  );

  app.get<{ Params: { id: number; check: string; fingerprint: string }; Querystring: PageQuery }>(
    "/crawls/:id/issues/:check/findings/:fingerprint/urls",
    { schema: listFindingUrls },
    async (request, reply) => {
      const crawl = await owned(request, reply);
      if (!crawl) return reply;
      const { check, fingerprint } = request.params;
      const urls = await crawlFindings.findingUrlList(crawl.id, check, fingerprint);
      if (urls === null) return sendProblem(request, reply, problems.notFound());
      const { page, perPage, window } = paging(request.query);
      const items = urls
        .slice(window.offset, window.offset + window.limit)
        .map((url) => JSON.stringify({ object: "finding_url", url }));
      return sendPage(
        request,
        reply,
        { page, perPage, params: [["per_page", String(perPage)]] },
        items,
        urls.length,
      );
    },
  );

  app.get<{ Params: { id: number }; Querystring: PageQuery & LinkFilter }>(
    "/crawls/:id/links",
    { schema: listCrawlLinks },
    async (request, reply) => {
      const crawl = await owned(request, reply);
      if (!crawl) return reply;
      const { to, from, status } = request.query;
      const filter: LinkFilter = {
        ...(to !== undefined ? { to } : {}),
        ...(from !== undefined ? { from } : {}),
        ...(status !== undefined ? { status } : {}),
      };
      if (wantsCsv(request)) {
        return sendCsvStream(reply, `crawl-${crawl.id}-links.csv`, crawlFindings.linksCsv(crawl.id, filter));
      }
      const { page, perPage, window } = paging(request.query);
      const { rows, total } = await crawlFindings.linkList(crawl.id, filter, window);
      const params: Array<[string, string]> = [];
      if (to !== undefined) params.push(["to", to]);
      if (from !== undefined) params.push(["from", from]);
      if (status !== undefined) params.push(["status", String(status)]);
      params.push(["per_page", String(perPage)]);
      const items = rows.map((row) => JSON.stringify(linkObject(row)));
      return sendPage(request, reply, { page, perPage, params }, items, total);
    },
  );
}
