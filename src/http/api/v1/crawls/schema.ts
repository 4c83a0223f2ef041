/** Request and response schemas of /api/v1/crawls. */
import { Type } from "typebox";
import { reportSchedules } from "../../../../store/schema.js";
import { analysisModes } from "../../../../vocabulary.js";
import {
  errorResponses,
  integerEnum,
  PageQuery,
  paginated,
  refTo,
  stringEnum,
  Timestamp,
} from "../common-schema.js";

const crawlStatuses = ["queued", "running", "complete", "cancelled", "failed"] as const;
const nullableInteger = Type.Union([Type.Integer(), Type.Null()]);
const nullableString = Type.Union([Type.String(), Type.Null()]);

/** A crawl's fields as every answer shows them; `Crawl` (one crawl) adds a list crawl's `urls`. */
const crawlSummaryFields = {
  id: Type.Integer(),
  object: Type.Literal("crawl"),
  url: Type.String(),
  url_count: Type.Union([Type.Integer(), Type.Null()], {
    description: "List mode: how many URLs the crawl's list holds; null when it follows links from url",
  }),
  urls_url: Type.Union([Type.String(), Type.Null()], {
    description: "List mode: where the list itself is shown (the crawl's own address, its `urls`); else null",
  }),
};

export const Crawl = Type.Object(
  {
    id: crawlSummaryFields.id,
    object: crawlSummaryFields.object,
    url: crawlSummaryFields.url,
    urls: Type.Union([Type.Array(Type.String()), Type.Null()], {
      description:
        "List mode: the only URLs the crawl analyses; null when it follows links from url. Shown by this crawl's own address only: lists and event streams give url_count and urls_url instead",
    }),
    url_count: crawlSummaryFields.url_count,
    urls_url: crawlSummaryFields.urls_url,
    project: Type.String(),
    status: stringEnum(crawlStatuses),
    max_pages: Type.Integer(),
    max_depth: Type.Integer(),
    sitemaps: integerEnum([0, 1]),
    include: Type.Array(Type.String()),
    exclude: Type.Array(Type.String()),
    mode: stringEnum(analysisModes),
    privacy: integerEnum(
      [0, 1, 2],
      "Who sees its audit (0 public, 1 private, 2 password); its pages' reports are public only when 0",
    ),
    schedule: stringEnum(reportSchedules),
    header_names: Type.Array(Type.String(), {
      description:
        "The names of the request headers the crawl sends to its own hosts (their values are never shown)",
    }),
    extract: Type.Array(Type.Record(Type.String(), Type.String()), {
      description: "Extraction rules: {name, selector[, attribute]} or {name, regex}",
    }),
    pages: Type.Object({
      discovered: Type.Integer(),
      analysed: Type.Integer(),
      failed: Type.Integer(),
      excluded: Type.Integer(),
    }),
    dropped: Type.Object(
      {
        urls: Type.Integer({
          description:
            "New URLs found once the crawl held its most (PAGEGRADE_CRAWL_URLS_PER_PAGE × max_pages): not stored, counted each time a page links to one",
        }),
        links: Type.Integer({
          description:
            "Internal links found but not recorded (beyond PAGEGRADE_CRAWL_LINKS_PER_PAGE on a page, or PAGEGRADE_CRAWL_MEAN_PAGE_LINKS × max_pages in all). A page's distinct links past its first 10,000 are counted here and their URLs not offered to the crawl",
        }),
      },
      { description: "What the crawl's storage bounds left out" },
    ),
    score: nullableInteger,
    result: Type.Union([stringEnum(["good", "decent", "bad"]), Type.Null()]),
    issues: Type.Object({ high: Type.Integer(), medium: Type.Integer(), low: Type.Integer() }),
    limited: Type.Boolean({
      description: "Whether the crawl left URLs it came upon unreached at its limits (max_pages, max_depth)",
    }),
    not_reached: Type.Integer({
      description: "How many URLs it came upon and did not reach at its limits (excluded: limit)",
    }),
    error: Type.Union([Type.Object({ reason: Type.String(), message: Type.String() }), Type.Null()], {
      description:
        "Why the crawl failed (status failed: its start page's reason, as a report's error, or robots when robots.txt refuses it, off-site when it redirects off the project); else null",
    }),
    started_at: Type.Union([Timestamp, Type.Null()]),
    finished_at: Type.Union([Timestamp, Type.Null()]),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: "Crawl", title: "Crawl" },
);

/**
 * A crawl as lists and event streams show it: every field of `Crawl` but `urls` (`url_count` and `urls_url`
 * instead), so a list's size is bounded by its fields' own limits (docs/api.md, "Response sizes").
 */
export const CrawlSummary = Type.Object(
  Object.fromEntries(Object.entries(Crawl.properties).filter(([name]) => name !== "urls")) as Omit<
    typeof Crawl.properties,
    "urls"
  >,
  { $id: "CrawlSummary", title: "Crawl summary" },
);

export const CrawlPage = Type.Object(
  {
    object: Type.Literal("crawl_page"),
    url: Type.String(),
    status_code: nullableInteger,
    content_type: nullableString,
    depth: nullableInteger,
    inlinks: Type.Integer(),
    outlinks: Type.Integer(),
    in_sitemap: Type.Boolean(),
    indexable: Type.Boolean(),
    canonical: nullableString,
    title: nullableString,
    redirect_to: nullableString,
    report_id: nullableInteger,
    score: nullableInteger,
    result: nullableString,
    excluded: Type.Union([stringEnum(["robots", "pattern", "limit", "not-html"]), Type.Null()]),
    error: nullableString,
    extracted: Type.Record(Type.String(), Type.Array(Type.String()), {
      description:
        "Each extraction rule's values on the page (at most 10 of at most 500 characters), by name",
    }),
  },
  { $id: "CrawlPage", title: "CrawlPage" },
);

export const SiteIssue = Type.Object(
  {
    object: Type.Literal("site_issue"),
    check: Type.String(),
    category: Type.String(),
    importance: stringEnum(["high", "medium", "low"]),
    title: Type.String(),
    message: Type.String(),
    count: Type.Integer(),
    items: Type.Array(Type.Record(Type.String(), Type.Unknown())),
    truncated: Type.Integer(),
  },
  { $id: "SiteIssue", title: "SiteIssue" },
);

const DiffSide = Type.Object({
  id: Type.Integer(),
  finished_at: Type.Union([Timestamp, Type.Null()]),
  score: nullableInteger,
  pages: Type.Object({
    discovered: Type.Integer(),
    analysed: Type.Integer(),
    failed: Type.Integer(),
    excluded: Type.Integer(),
  }),
});
const checkStatus = Type.String({ description: "pass, warn or fail" });
const Importances = Type.Object({ high: Type.Integer(), medium: Type.Integer(), low: Type.Integer() });

const Coverage = Type.Object(
  {
    newly_checked: Type.Integer({ description: "Findings about URLs only the later crawl reached" }),
    no_longer_checked: Type.Integer({ description: "Findings about URLs only the earlier crawl reached" }),
  },
  {
    description:
      "Findings of one crawl only about URLs the other crawl did not reach: neither new nor resolved, neither regression nor fix",
  },
);

export const CrawlDiff = Type.Object(
  {
    object: Type.Literal("crawl_diff"),
    project: Type.String(),
    from: Type.Union([DiffSide, Type.Null()], {
      description: "Null when there is no earlier crawl to compare",
    }),
    to: DiffSide,
    score_change: nullableInteger,
    pages: Type.Object({
      added: Type.Array(Type.String(), { maxItems: 100 }),
      removed: Type.Array(Type.String(), { maxItems: 100 }),
      status_changed: Type.Array(
        Type.Object({ url: Type.String(), from: nullableInteger, to: nullableInteger }),
        { maxItems: 100 },
      ),
      indexability_changed: Type.Array(
        Type.Object({ url: Type.String(), from: Type.Boolean(), to: Type.Boolean() }),
        { maxItems: 100 },
      ),
      truncated: Type.Integer({ description: "Entries left out of the four lists (at most 100 each)" }),
    }),
    site_issues: Type.Array(
      Type.Object({
        check: Type.String(),
        importance: stringEnum(["high", "medium", "low"]),
        from_count: Type.Integer(),
        to_count: Type.Integer(),
        new: Type.Array(Type.Record(Type.String(), Type.Unknown()), { maxItems: 100 }),
        resolved: Type.Array(Type.Record(Type.String(), Type.Unknown()), { maxItems: 100 }),
        new_count: Type.Integer(),
        resolved_count: Type.Integer(),
        coverage: Coverage,
      }),
    ),
    page_checks: Type.Array(
      Type.Object({
        check: Type.String(),
        importance: Type.String(),
        regressed: Type.Integer(),
        fixed: Type.Integer(),
        pages: Type.Array(Type.Object({ url: Type.String(), from: checkStatus, to: checkStatus }), {
          maxItems: 100,
        }),
      }),
    ),
    regressions: Importances,
    coverage: Coverage,
  },
  { $id: "CrawlDiff", title: "CrawlDiff" },
);

export const crawlSchemas = [Crawl, CrawlSummary, CrawlPage, SiteIssue, CrawlDiff];

const IdParams = Type.Object({ id: Type.Integer({ minimum: 1 }) });
export const CrawlEnvelope = (status: 200 | 202) =>
  Type.Object({ data: refTo(Crawl), status: Type.Literal(status) });
const patternsField = Type.Optional(
  Type.Union([Type.Array(Type.String(), { maxItems: 50 }), Type.String({ maxLength: 5000 })], {
    description:
      "URL path patterns (* any run, a final $ anchors): repeated field, JSON array or comma-separated",
  }),
);
const csv = { "text/csv": { schema: { type: "string" } } };

export const createCrawl = {
  summary: "Crawl a site into its project",
  tags: ["crawls"],
  body: Type.Object({
    url: Type.Optional(Type.String({ maxLength: 2048, description: "The start page (or urls)" })),
    urls: Type.Optional(
      Type.Union([Type.Array(Type.String()), Type.String()], {
        description:
          "List mode, instead of url: up to max_pages absolute URLs of one project (repeated field, JSON array, or one per line); only these are analysed",
      }),
    ),
    extract: Type.Optional(
      Type.Union([Type.Array(Type.Unknown()), Type.String()], {
        description:
          'Up to 10 extraction rules {"name", "selector"[, "attribute"]} or {"name", "regex"} (a JSON array, or its text in a form body)',
      }),
    ),
    max_pages: Type.Optional(Type.Integer({ description: "Page URLs fetched at most (default 500)" })),
    max_depth: Type.Optional(Type.Integer({ description: "Clicks from the start page (default 10, 0–50)" })),
    sitemaps: Type.Optional(integerEnum([0, 1], "Also start from the sitemaps (default 1)")),
    include: patternsField,
    exclude: patternsField,
    privacy: Type.Optional(integerEnum([0, 1], "Of the reports it creates (default 1)")),
    mode: Type.Optional(stringEnum(analysisModes)),
    schedule: Type.Optional(stringEnum(reportSchedules)),
    headers: Type.Optional(
      Type.Union(
        [
          Type.Record(Type.String({ maxLength: 100 }), Type.String({ maxLength: 4096 })),
          Type.Array(Type.String({ maxLength: 4200 }), { maxItems: 20 }),
          Type.String({ maxLength: 21000 }),
        ],
        {
          description:
            "Up to 5 request headers sent to the crawl's own hosts only (Cookie, Authorization or X-…): an object of name → value, or repeated `Name: value` fields; stored encrypted, never shown",
        },
      ),
    ),
  }),
  response: { 202: CrawlEnvelope(202), ...errorResponses(400, 413, 415, 422) },
  description: "A body may be up to 1 MiB (a list of URLs); other bodies up to 16 KiB.",
};

export const listCrawls = {
  summary: "List crawls",
  tags: ["crawls"],
  querystring: Type.Object({
    project: Type.Optional(Type.String({ maxLength: 255 })),
    status: Type.Optional(stringEnum(crawlStatuses)),
    sort_by: Type.Optional(stringEnum(["id"])),
    ...PageQuery,
  }),
  description:
    'Each crawl is a summary: a list crawl\'s URLs are counted (`url_count`) and shown by `GET /crawls/{id}` (`urls_url`). A crawl is at most about 71,000 characters of its own settings and error (141 KB encoded), about 0.7 KB in practice, so a page of 100 is at most 14 MB, under 100 KB in practice (docs/api.md, "Response sizes").',
  response: { 200: paginated(refTo(CrawlSummary), "CrawlPageOfCrawls"), ...errorResponses(422) },
};

export const showCrawl = {
  summary: "Show a crawl",
  tags: ["crawls"],
  params: IdParams,
  response: { 200: CrawlEnvelope(200), ...errorResponses(404) },
};

export const cancelCrawl = {
  summary: "Cancel a crawl (it stops within seconds, keeping what it analysed)",
  tags: ["crawls"],
  params: IdParams,
  // A POST takes no body here, but one sent is still read: too large (413) or of a type not accepted (415).
  response: { 200: CrawlEnvelope(200), ...errorResponses(404, 409, 413, 415) },
};

export const deleteCrawl = {
  summary: "Delete a crawl, its page list and its findings (the reports stay)",
  tags: ["crawls"],
  params: IdParams,
  response: {
    200: Type.Object({
      id: Type.Integer(),
      object: Type.Literal("crawl"),
      deleted: Type.Literal(true),
      status: Type.Literal(200),
    }),
    ...errorResponses(404),
  },
};

const listQuery = Type.Object({
  per_page: Type.Optional(integerEnum([10, 25, 50, 100])),
  page: Type.Optional(Type.Integer({ minimum: 1 })),
});

export const listCrawlPages = {
  summary: "The crawl's pages (Accept: text/csv gives every row as CSV)",
  tags: ["crawls"],
  params: IdParams,
  querystring: listQuery,
  response: {
    200: {
      description: "The pages",
      content: { "application/json": { schema: paginated(refTo(CrawlPage), "CrawlPagePage") }, ...csv },
    },
    ...errorResponses(404, 422),
  },
};

export const listCrawlIssues = {
  summary: "The crawl's site findings (Accept: text/csv gives every row as CSV)",
  tags: ["crawls"],
  params: IdParams,
  querystring: listQuery,
  response: {
    200: {
      description: "The findings",
      content: { "application/json": { schema: paginated(refTo(SiteIssue), "SiteIssuePage") }, ...csv },
    },
    ...errorResponses(404, 422),
  },
};

export const crawlEvents = {
  summary: "The crawl's progress as a text/event-stream",
  description:
    "A `progress` event with the crawl's summary (a CrawlSummary: counts, never a list crawl's URLs) whenever its counts change (at most a few per second), then one `complete`, `cancelled` or `failed` event, and the stream ends. A client that does not read gets only the latest state once it reads again (progress events coalesce), and is disconnected after 60 s without reading.",
  tags: ["crawls"],
  params: IdParams,
  response: {
    200: {
      description: "The event stream",
      content: { "text/event-stream": { schema: { type: "string" } } },
    },
    ...errorResponses(404),
  },
};

export const showCrawlDiff = {
  summary: "What changed since an earlier complete crawl of the same project",
  description:
    "Site findings new and resolved (by fingerprint), page checks regressed and fixed on pages both crawls analysed, pages added, removed or changed, regressions by importance. Lists hold at most 100 entries; the counts are complete.",
  tags: ["crawls"],
  params: IdParams,
  querystring: Type.Object({
    from: Type.Optional(
      Type.Integer({
        minimum: 1,
        description:
          "The crawl to compare with (default: the latest complete crawl of the project that finished before this one)",
      }),
    ),
  }),
  response: {
    200: Type.Object({ data: refTo(CrawlDiff), status: Type.Literal(200) }),
    ...errorResponses(404, 409, 422),
  },
};
