/** Request and response schemas of a report's history: /api/v1/reports/{id}/analyses and /diff. */
import { Type } from "typebox";
import { errorResponses, PageQuery, paginated, refTo, stringEnum, Timestamp } from "../common-schema.js";
import { CategoryScores, CheckResult, resultValues, Summary } from "../reports/schema.js";

const nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()]);

const analysisFields = {
  id: Type.Integer({ description: "Increases with time" }),
  object: Type.Literal("analysis"),
  report_id: Type.Integer(),
  status: stringEnum(["complete", "failed"]),
  trigger: stringEnum(["create", "rerun", "schedule", "crawl"], "What started the analysis"),
  mode: stringEnum(["raw", "rendered"]),
  url: Type.String(),
  final_url: nullable(Type.String()),
  result: nullable(stringEnum(resultValues)),
  score: nullable(Type.Integer({ minimum: 0, maximum: 100 })),
  categories: nullable(CategoryScores),
  summary: nullable(Summary),
  error: nullable(
    Type.Object({
      reason: Type.String({ description: "Stable reason code, as a 422's reason" }),
      message: Type.String(),
    }),
  ),
  generated_at: Timestamp,
};

export const Analysis = Type.Object(analysisFields, { $id: "Analysis", title: "Analysis" });
export const AnalysisWithResults = Type.Object(
  {
    ...analysisFields,
    results: nullable(Type.Record(Type.String(), refTo(CheckResult))),
  },
  { $id: "AnalysisWithResults", title: "AnalysisWithResults" },
);

const DiffEnd = Type.Object({
  id: Type.Integer(),
  score: Type.Integer({ minimum: 0, maximum: 100 }),
  result: stringEnum(resultValues),
  generated_at: Timestamp,
});
const checkStatus = stringEnum(["pass", "warn", "fail", "na", "info", "error"]);

export const Diff = Type.Object(
  {
    object: Type.Literal("diff"),
    report_id: Type.Integer(),
    from: nullable(DiffEnd),
    to: DiffEnd,
    score_change: nullable(Type.Integer()),
    categories: Type.Record(
      Type.String(),
      Type.Object({
        from: nullable(Type.Integer()),
        to: nullable(Type.Integer()),
        change: nullable(Type.Integer()),
      }),
    ),
    checks: Type.Array(
      Type.Object({
        id: Type.String(),
        title: Type.String(),
        category: Type.String(),
        importance: Type.String(),
        change: stringEnum(["regressed", "fixed", "improved", "changed", "added", "removed"]),
        from: nullable(checkStatus),
        to: nullable(checkStatus),
        evidence: Type.Object({
          added: Type.Array(Type.Record(Type.String(), Type.Unknown())),
          removed: Type.Array(Type.Record(Type.String(), Type.Unknown())),
        }),
      }),
      {
        description:
          "Checks whose status or evidence changed: regressed, fixed, improved, changed, added, removed; then importance high to low, then id",
      },
    ),
  },
  { $id: "Diff", title: "Diff" },
);

export const analysisSchemas = [Analysis, AnalysisWithResults, Diff];

const ReportParams = Type.Object({ id: Type.Integer({ minimum: 1 }) });

export const listAnalyses = {
  summary: "List a report's analyses",
  tags: ["history"],
  params: ReportParams,
  querystring: Type.Object({ ...PageQuery }),
  response: { 200: paginated(refTo(Analysis), "AnalysisPage"), ...errorResponses(404, 422) },
};

export const showAnalysis = {
  summary: "Show one analysis of a report, with its results",
  tags: ["history"],
  params: Type.Object({
    id: Type.Integer({ minimum: 1 }),
    analysis: Type.Integer({ minimum: 1 }),
  }),
  response: {
    200: Type.Object({ data: refTo(AnalysisWithResults), status: Type.Literal(200) }),
    ...errorResponses(404),
  },
};

export const diffAnalyses = {
  summary: "What changed between two complete analyses of a report",
  tags: ["history"],
  params: ReportParams,
  querystring: Type.Object({
    from: Type.Optional(
      Type.Integer({ minimum: 1, description: "Default: the complete analysis before `to`" }),
    ),
    to: Type.Optional(Type.Integer({ minimum: 1, description: "Default: the latest complete analysis" })),
  }),
  response: {
    200: Type.Object({ data: refTo(Diff), status: Type.Literal(200) }),
    ...errorResponses(404, 422),
  },
};
