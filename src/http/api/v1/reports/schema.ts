/** Request and response schemas of /api/v1/reports. */
import { type TSchema, Type } from "typebox";
import { categories } from "../../../../analysis/checks/check.js";
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

export const reportSortKeys = ["id", "generated_at", "url", "result"] as const;
export const resultValues = ["good", "decent", "bad"] as const;

export const CheckResult = Type.Object(
  {
    category: stringEnum(categories),
    importance: stringEnum(["high", "medium", "low", "info"]),
    status: stringEnum(["pass", "warn", "fail", "na", "info", "error"]),
    passed: Type.Union([Type.Boolean(), Type.Null()]),
    value: Type.Unknown({ description: "The measured fact" }),
    message: Type.String(),
    details: Type.Optional(
      Type.Object({
        items: Type.Array(Type.Record(Type.String(), Type.Unknown()), { maxItems: 50 }),
        truncated: Type.Integer({ minimum: 0 }),
      }),
    ),
    cut: Type.Optional(
      Type.Object(
        {
          reason: stringEnum(["report-size"]),
          evidence_items: Type.Integer({
            minimum: 0,
            description: "Evidence items left out (also in truncated)",
          }),
          message: Type.Boolean({ description: "Whether the message was shortened (it ends in …)" }),
          value: Type.Boolean({ description: "Whether the value was shortened (or, at worst, made null)" }),
        },
        {
          description:
            "What the report's size budget (512 KiB of results) cut from this result; absent when nothing. Never the status.",
        },
      ),
    ),
  },
  { $id: "CheckResult", title: "CheckResult" },
);

const nullableScore = Type.Union([Type.Integer({ minimum: 0, maximum: 100 }), Type.Null()]);

export const Summary = Type.Object({
  checks: Type.Integer(),
  passed: Type.Integer(),
  warnings: Type.Integer(),
  failed: Type.Integer(),
  issues: Type.Object({ high: Type.Integer(), medium: Type.Integer(), low: Type.Integer() }),
  gates: Type.Optional(
    Type.Array(stringEnum(["indexable", "https", "title", "viewport"]), {
      description:
        "The gates that cap the score at 79 (it cannot be good): not indexable by any major crawler, or failing https, title or viewport. Absent from analyses made before gates were reported.",
    }),
  ),
  costliest: Type.Optional(
    Type.Array(Type.Object({ check: Type.String(), points: Type.Integer({ minimum: 1 }) }), {
      maxItems: 3,
      description:
        "The failed or warned checks whose fixing would bring back the most points (the score recomputed with that check passing), most first.",
    }),
  ),
});

export const CategoryScores = Type.Object({
  seo: nullableScore,
  performance: nullableScore,
  security: nullableScore,
  miscellaneous: nullableScore,
  accessibility: Type.Optional(
    Type.Union([Type.Integer({ minimum: 0, maximum: 100 }), Type.Null()], {
      description:
        "Rendered mode only (axe-core); null in raw mode, absent from analyses stored before the category existed",
    }),
  ),
});

const nullable = <T extends TSchema>(schema: T, description?: string) =>
  Type.Union([schema, Type.Null()], description ? { description } : {});

export const reportStatuses = ["queued", "running", "complete", "failed"] as const;

export const Report = Type.Object(
  {
    id: Type.Integer(),
    object: Type.Literal("report"),
    url: Type.String(),
    final_url: Type.String(),
    project: Type.String(),
    result: nullable(stringEnum(resultValues), "Of the latest complete analysis; null before the first"),
    score: nullable(Type.Integer({ minimum: 0, maximum: 100 })),
    privacy: integerEnum([0, 1, 2], "0 public, 1 private, 2 password"),
    password: Type.Boolean({ description: "Whether a password is set" }),
    status: stringEnum(reportStatuses, "The state of the report's latest analysis job"),
    error: nullable(
      Type.Object({ reason: Type.String(), message: Type.String() }),
      "Why the latest analysis failed (status failed); else null",
    ),
    mode: stringEnum(analysisModes, "The mode the next analysis uses"),
    schedule: stringEnum(reportSchedules),
    next_run_at: nullable(Timestamp, "When the next scheduled analysis is due"),
    summary: nullable(Summary),
    categories: nullable(CategoryScores),
    results: nullable(Type.Record(Type.String(), refTo(CheckResult))),
    analyses: Type.Integer({ minimum: 0, description: "Stored analyses of this report" }),
    analysis_id: Type.Union([Type.Integer(), Type.Null()], {
      description: "The analysis the report shows: its latest complete one",
    }),
    score_change: Type.Union([Type.Integer(), Type.Null()], {
      description: "Its score minus the previous complete analysis's score; null when there is none",
    }),
    generated_at: nullable(Timestamp),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: "Report", title: "Report" },
);

export const reportSchemas = [CheckResult, Report];

const ReportRef = refTo(Report);
const IdParams = Type.Object({ id: Type.Integer({ minimum: 1 }) });

export const listReports = {
  summary: "List reports",
  tags: ["reports"],
  querystring: Type.Object({
    search: Type.Optional(
      Type.String({ maxLength: 255, description: "Case-insensitive substring of the searched field" }),
    ),
    search_by: Type.Optional(stringEnum(["url"], "Field searched (default url)")),
    project: Type.Optional(Type.String({ maxLength: 255, description: "Exact project name" })),
    result: Type.Optional(stringEnum(resultValues)),
    sort_by: Type.Optional(stringEnum(reportSortKeys, "Sort key (default id); result sorts by score")),
    ...PageQuery,
  }),
  response: { 200: paginated(ReportRef, "ReportPage"), ...errorResponses(422) },
};

export const showReport = {
  summary: "Show a report",
  tags: ["reports"],
  params: IdParams,
  response: { 200: Type.Object({ data: ReportRef, status: Type.Literal(200) }), ...errorResponses(404) },
};

/** `Prefer: respond-async` (RFC 7240) asks for the analysis to run in the background. */
const PreferHeader = Type.Object({
  prefer: Type.Optional(
    Type.String({ description: "respond-async: answer 202 at once and analyse in the background" }),
  ),
});

const settingsFields = {
  mode: Type.Optional(stringEnum(analysisModes, "raw (default): the HTML as served; rendered: in Chromium")),
  schedule: Type.Optional(stringEnum(reportSchedules, "Re-analyse every day or week (default off)")),
};

export const storeReport = {
  summary: "Analyse a URL and store the report",
  tags: ["reports"],
  headers: PreferHeader,
  body: Type.Object({
    url: Type.String({ maxLength: 2048, description: "Absolute http(s) URL" }),
    privacy: Type.Optional(integerEnum([0, 1, 2], "0 public, 1 private (default), 2 password")),
    password: Type.Optional(
      Type.String({ maxLength: 128, description: "Only has effect when privacy is 2" }),
    ),
    ...settingsFields,
  }),
  response: {
    201: Type.Object({ data: ReportRef, status: Type.Literal(201) }),
    202: Type.Object({ data: ReportRef, status: Type.Literal(202) }, { description: "Stored; analysing" }),
    ...errorResponses(400, 413, 415, 422, 503),
  },
};

export const updateReport = {
  summary: "Update a report's privacy, password, mode or schedule, or re-run its analysis",
  tags: ["reports"],
  params: IdParams,
  headers: PreferHeader,
  body: Type.Object({
    privacy: Type.Optional(integerEnum([0, 1, 2])),
    password: Type.Optional(Type.String({ maxLength: 128 })),
    results: Type.Optional(integerEnum([0, 1], "1 re-runs the analysis")),
    ...settingsFields,
  }),
  response: {
    200: Type.Object({ data: ReportRef, status: Type.Literal(200) }),
    202: Type.Object({ data: ReportRef, status: Type.Literal(202) }, { description: "Re-analysing" }),
    ...errorResponses(400, 404, 413, 415, 422, 503),
  },
};

export const deleteReport = {
  summary: "Delete a report",
  tags: ["reports"],
  params: IdParams,
  response: {
    200: Type.Object({
      id: Type.Integer(),
      object: Type.Literal("report"),
      deleted: Type.Literal(true),
      status: Type.Literal(200),
    }),
    ...errorResponses(404),
  },
};
