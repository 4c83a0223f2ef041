/** Request and response schemas of a crawl's shared audit: its privacy and password. */
import { Type } from "typebox";
import { errorResponses, integerEnum } from "../common-schema.js";
import { pdfDownload } from "../reports/pdf-routes.js";
import { CrawlEnvelope } from "./schema.js";

export const updateCrawl = {
  summary: "Share a crawl's audit: set its privacy and password",
  description:
    "Who may open the crawl's audit page (/crawls/{id}/audit) and its PDF, by the rules of a report's privacy: 0 public, 1 private, 2 password (Argon2id, wrong passwords throttled). A password only has effect with privacy 2 and is required there unless one is set; leaving privacy 2 clears it.",
  tags: ["crawls"],
  params: Type.Object({ id: Type.Integer({ minimum: 1 }) }),
  body: Type.Object({
    privacy: Type.Optional(integerEnum([0, 1, 2], "0 public, 1 private, 2 password")),
    password: Type.Optional(
      Type.String({ maxLength: 128, description: "Only has effect when privacy is 2" }),
    ),
  }),
  response: { 200: CrawlEnvelope(200), ...errorResponses(400, 404, 413, 415, 422) },
};

export const showAuditPdf = {
  summary: "Download a crawl's audit as a PDF",
  description:
    "The audit as an A4 PDF: a cover (site, date, site score, trend chart), the contents, what to fix first, what changed since the previous crawl and every issue with its first 25 pages (the counts complete), page numbers on every page. Counted as report PDFs are. 409 while the crawl is queued or running; 503 when this server has no Chromium, or (with Retry-After) when too many PDFs are being made.",
  tags: ["crawls"],
  params: Type.Object({ id: Type.Integer({ minimum: 1 }) }),
  response: {
    200: pdfDownload("audit-<id>.pdf"),
    ...errorResponses(404, 409, 429, 503),
  },
};
