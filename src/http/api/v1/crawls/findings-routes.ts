/**
 * /api/v1/crawls/{id}/checks (the page checks rolled up), /fix-first (page checks and site issues in one
 * ranking), /checks/{check}/pages (a check's affected pages), /issues/{check}/findings/{fingerprint}/urls (a
 * site finding's whole URL list, JSON only) and /links (the internal links): JSON pages, or with
 * `Accept: text/csv` every row, streamed as it is read.
 */
import type { FastifyInstance } from "fastify";
import { found } from "../../../../accounts/access.js";
import { isPageCheck } from "../../../../crawls/check-rollup.js";
import type { LinkFilter } from "../../../../crawls/crawl-link-store.js";
import { checkPageObject, checkRollupObject, linkObject } from "../../../../crawls/findings-present.js";
import { fixObject } from "../../../../crawls/fix-first.js";
import type { ApiContext } from "../context.js";
import { crawlListRoute, type PageQuery } from "./crawl-list-route.js";
import {
  listCheckPages,
  listCrawlChecks,
  listCrawlLinks,
  listFindingUrls,
  listFixFirst,
} from "./findings-schema.js";

export async function crawlFindingsRoutes(
  app: FastifyInstance,
  { crawlFindings, access }: ApiContext,
): Promise<void> {
  crawlListRoute<{ id: number }, PageQuery>(app, access, {
    url: "/crawls/:id/checks",
    schema: listCrawlChecks,
    csv: async (crawl) => {
      const { rows } = await crawlFindings.checks(crawl.id, { limit: Number.MAX_SAFE_INTEGER, offset: 0 });
      return { file: `crawl-${crawl.id}-checks.csv`, chunks: crawlFindings.checksCsv(rows) };
    },
    page: async (crawl, _request, window) => {
      const { rows, total } = await crawlFindings.checks(crawl.id, window);
      return { items: rows.map((row) => JSON.stringify(checkRollupObject(row))), total };
    },
  });

  crawlListRoute<{ id: number }, PageQuery>(app, access, {
    url: "/crawls/:id/fix-first",
    schema: listFixFirst,
    page: async (crawl, _request, window) => {
      const fixes = await crawlFindings.fixFirst(crawl.id);
      const items = fixes
        .slice(window.offset, window.offset + window.limit)
        .map((fix) => JSON.stringify(fixObject(fix)));
      return { items, total: fixes.length };
    },
  });

  // An unknown check names nothing under the crawl: the same 404 as an unknown crawl.
  const pageCheck = (check: string) => found(isPageCheck(check) && check);
  crawlListRoute<{ id: number; check: string }, PageQuery>(app, access, {
    url: "/crawls/:id/checks/:check/pages",
    schema: listCheckPages,
    csv: async (crawl, request) => {
      const check = pageCheck(request.params.check);
      return {
        file: `crawl-${crawl.id}-${check}-pages.csv`,
        chunks: crawlFindings.checkPagesCsv(crawl.id, check),
      };
    },
    page: async (crawl, request, window) => {
      const { rows, total } = await crawlFindings.checkPages(
        crawl.id,
        pageCheck(request.params.check),
        window,
      );
      return { items: rows.map((row) => JSON.stringify(checkPageObject(row))), total };
    },
  });

  crawlListRoute<{ id: number; check: string; fingerprint: string }, PageQuery>(app, access, {
    url: "/crawls/:id/issues/:check/findings/:fingerprint/urls",
    schema: listFindingUrls,
    page: async (crawl, request, window) => {
      const { check, fingerprint } = request.params;
      // Checked here, not by the schema, so that a bad query is a 422 whatever the path names (as on every list).
      const urls = found(
        /^[0-9a-f]{32}$/.test(fingerprint) &&
          (await crawlFindings.findingUrlList(crawl.id, check, fingerprint)),
      );
      return {
        items: urls
          .slice(window.offset, window.offset + window.limit)
          .map((url) => JSON.stringify({ object: "finding_url", url })),
        total: urls.length,
      };
    },
  });

  crawlListRoute<{ id: number }, PageQuery & LinkFilter>(app, access, {
    url: "/crawls/:id/links",
    schema: listCrawlLinks,
    csv: async (crawl, request) => ({
      file: `crawl-${crawl.id}-links.csv`,
      chunks: crawlFindings.linksCsv(crawl.id, linkFilter(request.query)),
    }),
    page: async (crawl, request, window) => {
      const filter = linkFilter(request.query);
      const { rows, total } = await crawlFindings.linkList(crawl.id, filter, window);
      const filters: Array<[string, string]> = [];
      if (filter.to !== undefined) filters.push(["to", filter.to]);
      if (filter.from !== undefined) filters.push(["from", filter.from]);
      if (filter.status !== undefined) filters.push(["status", String(filter.status)]);
      return { items: rows.map((row) => JSON.stringify(linkObject(row))), total, filters };
    },
  });
}

/** The links filter the query names. */
function linkFilter({ to, from, status }: LinkFilter): LinkFilter {
  return {
    ...(to !== undefined ? { to } : {}),
    ...(from !== undefined ? { from } : {}),
    ...(status !== undefined ? { status } : {}),
  };
}
