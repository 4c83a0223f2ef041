/**
 * The Laravel paginator envelope (data, links, meta) and the RFC 8288 Link header, with page URLs that carry
 * the effective query parameters. Items arrive already serialised (as bytes, for reports), so stored JSON is
 * never parsed, decoded or encoded again.
 */
import type { FastifyReply, FastifyRequest } from "fastify";

export interface PageRequest {
  page: number;
  perPage: number;
  /** The effective query parameters other than page, in a stable order. */
  params: Array<[string, string]>;
}

export function sendPage(
  request: FastifyRequest,
  reply: FastifyReply,
  page: PageRequest,
  itemsJson: Array<string | Buffer>,
  total: number,
): FastifyReply {
  const { body, headers } = pageResponse(request, page, itemsJson, total);
  return reply.code(200).headers(headers).send(body);
}

/** The page's body and the headers that go with it (type, Link). */
export function pageResponse(
  request: FastifyRequest,
  page: PageRequest,
  itemsJson: Array<string | Buffer>,
  total: number,
): { body: Buffer; headers: Record<string, string> } {
  const lastPage = Math.max(1, Math.ceil(total / page.perPage));
  const path = `${request.protocol}://${request.host}${request.url.split("?")[0]}`;
  const urlFor = (number: number) => {
    const query = new URLSearchParams([...page.params, ["page", String(number)]]);
    return `${path}?${query.toString()}`;
  };
  const from = itemsJson.length > 0 ? (page.page - 1) * page.perPage + 1 : null;
  const to = from === null ? null : from + itemsJson.length - 1;
  const prev = page.page > 1 ? urlFor(Math.min(page.page - 1, lastPage)) : null;
  const next = page.page < lastPage ? urlFor(page.page + 1) : null;
  const links = { first: urlFor(1), last: urlFor(lastPage), prev, next };
  const meta = {
    current_page: page.page,
    from,
    last_page: lastPage,
    links: [
      { url: prev, label: "&laquo; Previous", active: false },
      ...pageWindow(page.page, lastPage).map((number) =>
        number === null
          ? { url: null, label: "...", active: false }
          : { url: urlFor(number), label: String(number), active: number === page.page },
      ),
      { url: next, label: "Next &raquo;", active: false },
    ],
    path,
    per_page: page.perPage,
    to,
    total,
  };
  const linkHeader = [
    `<${links.first}>; rel="first"`,
    ...(prev ? [`<${prev}>; rel="prev"`] : []),
    ...(next ? [`<${next}>; rel="next"`] : []),
    `<${links.last}>; rel="last"`,
  ].join(", ");
  const parts: Buffer[] = [Buffer.from('{"data":[')];
  itemsJson.forEach((item, index) => {
    if (index > 0) parts.push(comma);
    parts.push(typeof item === "string" ? Buffer.from(item) : item);
  });
  parts.push(Buffer.from(`],"links":${JSON.stringify(links)},"meta":${JSON.stringify(meta)},"status":200}`));
  return {
    body: Buffer.concat(parts),
    headers: { "content-type": "application/json; charset=utf-8", link: linkHeader },
  };
}

const comma = Buffer.from(",");

/** Page numbers to show, Laravel-style: all of them when few, else both ends and a window, with gaps (null). */
function pageWindow(current: number, last: number): Array<number | null> {
  const onEachSide = 3;
  if (last <= onEachSide * 2 + 8) return range(1, last);
  if (current <= onEachSide * 2) return [...range(1, onEachSide * 2 + 2), null, last - 1, last];
  if (current > last - onEachSide * 2) return [1, 2, null, ...range(last - (onEachSide * 2 + 1), last)];
  return [1, 2, null, ...range(current - onEachSide, current + onEachSide), null, last - 1, last];
}

function range(from: number, to: number): number[] {
  return Array.from({ length: Math.max(0, to - from + 1) }, (_, index) => from + index);
}
