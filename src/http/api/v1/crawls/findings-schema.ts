/** Request and response schemas of a crawl's check roll-up and its internal links. */
import { Type } from "typebox";
import {
  errorResponses,
  integerEnum,
  paginated,
  perPageValues,
  refTo,
  stringEnum,
} from "../common-schema.js";

export const CheckRollup = Type.Object(
  {
    object: Type.Literal("check_rollup"),
    check: Type.String(),
    category: Type.String(),
    importance: stringEnum(["high", "medium", "low", "info"]),
    fail: Type.Integer({ description: "Analysed pages where the check failed" }),
    warn: Type.Integer({ description: "Analysed pages where the check warned" }),
    pages: Type.Integer({ description: "fail + warn" }),
    priority: Type.Integer({
      description: "Importance weight (high 10, medium 5, low 1) × (fail + warn / 2), rounded",
    }),
    templates: Type.Array(Type.Object({ pattern: Type.String(), pages: Type.Integer() }), {
      description:
        "The affected pages by URL path pattern (first segment + /*; / for the root; a one-segment path as itself), most pages first, at most 10",
    }),
  },
  { $id: "CheckRollup", title: "CheckRollup" },
);

export const CheckPage = Type.Object(
  {
    object: Type.Literal("check_page"),
    url: Type.String(),
    report_id: Type.Union([Type.Integer(), Type.Null()]),
    status: stringEnum(["fail", "warn"]),
    message: Type.String(),
    items: Type.Array(Type.Record(Type.String(), Type.Unknown()), {
      description: "The check's first 5 evidence items on the page",
    }),
  },
  { $id: "CheckPage", title: "CheckPage" },
);

export const Link = Type.Object(
  {
    object: Type.Literal("link"),
    source: Type.String(),
    target: Type.String(),
    anchor: Type.Union([Type.String(), Type.Null()], {
      description:
        "The first non-empty anchor text to the target on the source page (at most 100 characters)",
    }),
    nofollow: Type.Boolean(),
    target_status: Type.Union([Type.Integer(), Type.Literal("error"), Type.Null()], {
      description:
        "The target's status code; error when it could not be fetched; null when it was not fetched",
    }),
  },
  { $id: "Link", title: "Link" },
);

export const Fix = Type.Object(
  {
    object: Type.Literal("fix"),
    kind: stringEnum(["page_check", "site_issue"]),
    check: Type.String(),
    title: Type.String(),
    importance: stringEnum(["high", "medium", "low", "info"]),
    pages: Type.Integer({
      description:
        "Pages affected: where the page check failed or warned; for a site issue, the distinct pages its findings name",
    }),
    priority: Type.Integer({ description: "Importance weight (high 10, medium 5, low 1) × pages" }),
    how_to_fix: Type.String(),
    templates: Type.Array(Type.Object({ pattern: Type.String(), pages: Type.Integer() }), {
      description: "The affected pages by URL path pattern, most pages first, at most 10",
    }),
  },
  { $id: "Fix", title: "Fix" },
);

export const FindingUrl = Type.Object(
  {
    object: Type.Literal("finding_url"),
    url: Type.String(),
  },
  { $id: "FindingUrl", title: "FindingUrl" },
);

export const findingsSchemas = [CheckRollup, CheckPage, Link, Fix, FindingUrl];

const IdParams = Type.Object({ id: Type.Integer({ minimum: 1 }) });
const listQuery = {
  per_page: Type.Optional(integerEnum(perPageValues)),
  page: Type.Optional(Type.Integer({ minimum: 1 })),
};
const csv = { "text/csv": { schema: { type: "string" } } };

export const listCrawlChecks = {
  summary: "The crawl's page checks rolled up: what to fix first (Accept: text/csv gives every row)",
  tags: ["crawls"],
  params: IdParams,
  querystring: Type.Object(listQuery),
  response: {
    200: {
      description: "One item per page check that failed or warned on at least one analysed page",
      content: { "application/json": { schema: paginated(refTo(CheckRollup), "CheckRollupPage") }, ...csv },
    },
    ...errorResponses(404, 422),
  },
};

export const listFixFirst = {
  summary: "What to fix first: the page checks and the site issues of the crawl in one ranking, best first",
  tags: ["crawls"],
  params: IdParams,
  querystring: Type.Object(listQuery),
  response: {
    200: {
      description:
        "Every page check that failed or warned and every site issue, by priority (importance weight × pages), then importance, page checks first, then check id",
      content: { "application/json": { schema: paginated(refTo(Fix), "FixPage") } },
    },
    ...errorResponses(404, 422),
  },
};

export const listCheckPages = {
  summary:
    "The pages where a check failed or warned in the crawl (Accept: text/csv: url,status,message,evidence)",
  tags: ["crawls"],
  params: Type.Object({
    id: Type.Integer({ minimum: 1 }),
    check: Type.String({ maxLength: 64, description: "A page check id (GET /api/v1/checks)" }),
  }),
  querystring: Type.Object(listQuery),
  response: {
    200: {
      description: "The affected pages, in the order the crawl found them",
      content: { "application/json": { schema: paginated(refTo(CheckPage), "CheckPagePage") }, ...csv },
    },
    ...errorResponses(404, 422),
  },
};

export const listCrawlLinks = {
  summary: "Every internal link the crawl recorded, by source then target (Accept: text/csv gives every row)",
  tags: ["crawls"],
  params: IdParams,
  querystring: Type.Object({
    to: Type.Optional(Type.String({ maxLength: 2048, description: "Exact target URL" })),
    from: Type.Optional(Type.String({ maxLength: 2048, description: "Exact source URL" })),
    status: Type.Optional(
      Type.Union([Type.Integer({ minimum: 100, maximum: 599 }), Type.Literal("error")], {
        description: "The target's status code, or error (could not be fetched)",
      }),
    ),
    ...listQuery,
  }),
  response: {
    200: {
      description: "The links",
      content: { "application/json": { schema: paginated(refTo(Link), "LinkPage") }, ...csv },
    },
    ...errorResponses(404, 422),
  },
};

export const listFindingUrls = {
  summary:
    "Every URL of one site finding, paged: a duplicate group's pages or a redirect chain's URLs (the issues list shows the first 20 pages, 11 URLs of a chain)",
  tags: ["crawls"],
  params: Type.Object({
    id: Type.Integer({ minimum: 1 }),
    check: Type.String({ maxLength: 64, description: "A site check id" }),
    fingerprint: Type.String({
      maxLength: 32,
      description: "The finding's fingerprint (32 hexadecimal digits; any other names no finding: 404)",
    }),
  }),
  querystring: Type.Object(listQuery),
  response: {
    200: {
      description: "The finding's URLs in its order",
      content: { "application/json": { schema: paginated(refTo(FindingUrl), "FindingUrlPage") } },
    },
    ...errorResponses(404, 422),
  },
};
