/** Request and response schemas of a report's history: /api/v1/reports/{id}/analyses and /diff. */
import { Type } from "@sinclair/typebox";
import { errorResponses, PageQuery, paginated, stringEnum, Timestamp } from "../common-schema.js";
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
    results: nullable(Type.Record(Type.String(), Type.Ref(CheckResult))),
  },
  { $id: "AnalysisWithResults", title: "AnalysisWithResults" },
);

export const analysisSchemas = [Analysis, AnalysisWithResults];

const ReportParams = Type.Object({ id: Type.Integer({ minimum: 1 }) });

export const listAnalyses = {
  summary: "List a report's analyses",
  tags: ["history"],
  params: ReportParams,
  querystring: Type.Object({ ...PageQuery }),
  response: { 200: paginated(Type.Ref(Analysis), "AnalysisPage"), ...errorResponses(404, 422) },
};

export const showAnalysis = {
  summary: "Show one analysis of a report, with its results",
  tags: ["history"],
  params: Type.Object({
    id: Type.Integer({ minimum: 1 }),
    analysis: Type.Integer({ minimum: 1 }),
  }),
  response: {
    200: Type.Object({ data: Type.Ref(AnalysisWithResults), status: Type.Literal(200) }),
    ...errorResponses(404),
  },
};
