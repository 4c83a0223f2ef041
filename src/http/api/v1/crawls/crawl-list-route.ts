/**
 * The one shape of a crawl's list routes (`/crawls/{id}/pages`, `/issues`, `/checks`, `/checks/{check}/pages`,
 * `/links`, `/fix-first`): the caller's crawl from the path (the access seam's 404 otherwise), then with
 * `Accept: text/csv` every row as a streamed download, else one JSON page (`page`, `per_page`, and the route's
 * own filters named in its links before `per_page`).
 */
import type { FastifyInstance, FastifyRequest, FastifySchema } from "fastify";
import type { CrawlRow } from "../../../../crawls/crawl-store.js";
import { sendPage } from "../../../pagination.js";
import { sendCsvStream } from "../../../send-csv.js";
import type { ApiAccess } from "../access.js";

export interface PageQuery {
  per_page?: number;
  page?: number;
}

/** The rows of one page: `limit` rows from `offset`. */
export interface Window {
  limit: number;
  offset: number;
}

export interface CrawlList<Request extends FastifyRequest> {
  url: string;
  schema: FastifySchema;
  /** Every row as CSV: the download's file name and its chunks (absent: the list has no CSV). */
  csv?: (crawl: CrawlRow, request: Request) => Promise<{ file: string; chunks: AsyncIterable<string> }>;
  /** One page: its serialised items, the total, and the filters the page's links carry. */
  page: (
    crawl: CrawlRow,
    request: Request,
    window: Window,
  ) => Promise<{ items: string[]; total: number; filters?: Array<[string, string]> }>;
}

export function crawlListRoute<Params, Query extends PageQuery>(
  app: FastifyInstance,
  access: ApiAccess,
  list: CrawlList<FastifyRequest<{ Params: Params; Querystring: Query }>>,
): void {
  app.get<{ Params: Params; Querystring: Query }>(
    list.url,
    { schema: list.schema },
    async (request, reply) => {
      const crawl = await access.crawl(request);
      if (list.csv && wantsCsv(request)) {
        const { file, chunks } = await list.csv(crawl, request);
        return sendCsvStream(reply, file, chunks);
      }
      const query = request.query as PageQuery;
      const page = query.page ?? 1;
      const perPage = query.per_page ?? 10;
      const {
        items,
        total,
        filters = [],
      } = await list.page(crawl, request, {
        limit: perPage,
        offset: (page - 1) * perPage,
      });
      const params: Array<[string, string]> = [...filters, ["per_page", String(perPage)]];
      return sendPage(request, reply, { page, perPage, params }, items, total);
    },
  );
}

function wantsCsv(request: FastifyRequest): boolean {
  return /\btext\/csv\b/.test(request.headers.accept ?? "");
}
