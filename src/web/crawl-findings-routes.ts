/**
 * A crawl's findings as pages, for the signed-in owner (another user's crawl, an unknown crawl or an unknown
 * check: the same 404 page): a page check's affected pages (`/crawls/{id}/checks/{check}/pages`, paged, failures
 * before warnings) and the internal links (`/crawls/{id}/links`, filtered by `to`, `from` and `status` as in the
 * API, paged), and a site finding's whole URL list (`/crawls/{id}/issues/{check}/findings/{fingerprint}`, paged: a
 * duplicate group's pages, a redirect chain's URLs). A filter value that is not allowed is ignored and named, never
 * refused. Their CSV downloads are served with the crawl's other CSVs (crawl-routes.ts).
 */
import type { FastifyInstance } from "fastify";
import { found } from "../accounts/access.js";
import { checkTitle } from "../analysis/check-titles.js";
import { isPageCheck } from "../crawls/check-rollup.js";
import type { CrawlFindings } from "../crawls/crawl-findings.js";
import type { LinkFilter } from "../crawls/crawl-link-store.js";
import { sendHtml } from "./render.js";
import {
  checkPagesBody,
  checkPagesPerPage,
  type LinkFilterState,
  linksBody,
  linksPerPage,
} from "./views/crawl-findings.js";
import { findingUrlsBody } from "./views/finding-urls.js";
import type { WebAccess } from "./web-access.js";

type Query = Record<string, string | undefined>;

export async function crawlFindingsRoutes(
  app: FastifyInstance,
  { crawlFindings, resources }: { crawlFindings: CrawlFindings; resources: WebAccess },
): Promise<void> {
  app.get<{ Params: { id: string; check: string }; Querystring: Query }>(
    "/crawls/:id/checks/:check/pages",
    async (request, reply) => {
      const crawl = await resources.crawl(request);
      // An unknown check names nothing under the crawl: the same 404 as an unknown crawl.
      const check = found(isPageCheck(request.params.check) && request.params.check);
      const page = pageOf(request.query);
      const { rows, total } = await crawlFindings.checkPages(
        crawl.id,
        check,
        { limit: checkPagesPerPage, offset: (page - 1) * checkPagesPerPage },
        { failuresFirst: true },
      );
      return sendHtml(
        request,
        reply,
        `Pages failing ${checkTitle(check)}`,
        checkPagesBody({ crawl, check, rows, total, page }),
      );
    },
  );

  app.get<{ Params: { id: string; check: string; fingerprint: string }; Querystring: Query }>(
    "/crawls/:id/issues/:check/findings/:fingerprint",
    async (request, reply) => {
      const crawl = await resources.crawl(request);
      const { check, fingerprint } = request.params;
      const urls = found(
        /^[0-9a-f]{32}$/.test(fingerprint) &&
          (await crawlFindings.findingUrlList(crawl.id, check, fingerprint)),
      );
      return sendHtml(
        request,
        reply,
        `One finding of ${crawl.project}`,
        findingUrlsBody({ crawl, check, fingerprint, urls, page: pageOf(request.query) }),
      );
    },
  );

  app.get<{ Params: { id: string }; Querystring: Query }>("/crawls/:id/links", async (request, reply) => {
    const crawl = await resources.crawl(request);
    const { state, filter, ignored } = linkFilterOf(request.query);
    const page = pageOf(request.query);
    const { rows, total } = await crawlFindings.linkList(crawl.id, filter, {
      limit: linksPerPage,
      offset: (page - 1) * linksPerPage,
    });
    return sendHtml(
      request,
      reply,
      `Links of ${crawl.project}`,
      linksBody({ crawl, filter: state, ignored, rows, total, page }),
    );
  });
}

/** The list's page from the query string: a positive whole number, else the first. */
function pageOf(query: Query): number {
  return /^[1-9][0-9]{0,8}$/.test(query.page ?? "") ? Number(query.page) : 1;
}

/**
 * The links filter from the query string, as the API reads it: `to` and `from` exact URLs (trimmed, at most
 * 2048 characters), `status` a status code (100–599) or `error`; a status of another shape is ignored.
 */
export function linkFilterOf(query: Query): {
  state: LinkFilterState;
  filter: LinkFilter;
  ignored: string[];
} {
  const text = (value: string | undefined) => (value ?? "").trim().slice(0, 2048);
  const to = text(query.to);
  const from = text(query.from);
  const rawStatus = text(query.status);
  const status = /^[1-5][0-9]{2}$/.test(rawStatus) || rawStatus === "error" ? rawStatus : "";
  const filter: LinkFilter = {
    ...(to ? { to } : {}),
    ...(from ? { from } : {}),
    ...(status ? { status: status === "error" ? "error" : Number(status) } : {}),
  };
  return { state: { to, from, status }, filter, ignored: rawStatus && !status ? ["status"] : [] };
}
