/**
 * A crawl's shared audit as pages, for anyone the crawl's privacy lets in (shared-visit.ts's hook, as a report's
 * pages: public, or its password): the audit (`/crawls/{id}/audit`), each issue's pages
 * (`…/audit/issues/{check}`, paged), its PDF (`…/audit.pdf`, counted as a report's PDF) and the password form's
 * answer (`…/audit/unlock`). Never indexed; shown in the shared shell (no navigation, nothing of the owner's
 * account).
 */

import type { FastifyInstance } from "fastify";
import { found } from "../accounts/access.js";
import { brandOwnerOf } from "../branding/branding-store.js";
import type { Brandings } from "../branding/brandings.js";
import type { CrawlAudits } from "../crawls/crawl-audits.js";
import type { CrawlFindings } from "../crawls/crawl-findings.js";
import type { CrawlRow } from "../crawls/crawl-store.js";
import type { Quotas } from "../limits/quotas.js";
import type { PasswordGate } from "../reports/password-gate.js";
import { workspaceOf } from "../store/owned-rows.js";
import type { SharedShell } from "./layout.js";
import type { AuditPrinter } from "./pdf/audit-printer.js";
import { chargePdf, sendPrinted } from "./pdf-routes.js";
import { sendHtml } from "./render.js";
import { type SharedPage, sharedVisits } from "./shared-visit.js";
import { auditBody, auditIssueBody, auditItemsPerPage, auditPath } from "./views/audit.js";

export interface AuditRouteOptions {
  audits: CrawlAudits;
  auditAccess: PasswordGate<CrawlRow>;
  crawlFindings: CrawlFindings;
  auditPdfs: AuditPrinter;
  quotas: Quotas;
  brandings: Brandings;
}

const pagegradeShell: SharedShell = { brandName: "pagegrade", logoUrl: null };

export const auditPages: SharedPage = {
  what: "audit",
  cookie: (id) => `pg_audit_${id}`,
  // The page's path covers its issue pages; its PDF (…/audit.pdf) is outside it and gets its own.
  cookiePaths: (id) => [auditPath(id), `${auditPath(id)}.pdf`],
  unlockPath: (id) => `${auditPath(id)}/unlock`,
  home: auditPath,
  shell: pagegradeShell,
  indexPublic: false,
};

export async function auditRoutes(
  app: FastifyInstance,
  { audits, auditAccess, crawlFindings, auditPdfs, quotas, brandings }: AuditRouteOptions,
): Promise<void> {
  /** The owner's brand in the page's header, instead of pagegrade's. */
  const shellOf = async (crawl: CrawlRow): Promise<SharedShell> => {
    const brand = await brandings.brandOf(brandOwnerOf(workspaceOf(crawl)));
    return { brandName: brand.name, logoUrl: brand.logoUrl };
  };
  const visits = sharedVisits(auditAccess, auditPages);

  app.get<{ Params: { id: string } }>(
    "/crawls/:id/audit",
    { preHandler: visits.hook },
    async (request, reply) => {
      const { row: crawl } = visits.of(request);
      const contents = await audits.contents(crawl);
      const title = `Site audit of ${crawl.project}`;
      return sendHtml(request, reply, title, auditBody(contents), 200, await shellOf(crawl));
    },
  );

  app.get<{ Params: { id: string; check: string }; Querystring: { page?: string } }>(
    "/crawls/:id/audit/issues/:check",
    { preHandler: visits.hook },
    async (request, reply) => {
      const { row: crawl } = visits.of(request);
      const fix = found(
        (await crawlFindings.fixFirst(crawl.id)).find((entry) => entry.check === request.params.check),
      );
      const page = /^[1-9][0-9]{0,5}$/.test(request.query.page ?? "") ? Number(request.query.page) : 1;
      const list = found(
        await audits.issuePages(crawl.id, fix, {
          limit: auditItemsPerPage,
          offset: (page - 1) * auditItemsPerPage,
        }),
      );
      return sendHtml(
        request,
        reply,
        fix.title,
        auditIssueBody({ crawl }, fix, list, page),
        200,
        await shellOf(crawl),
      );
    },
  );

  app.get<{ Params: { id: string } }>(
    "/crawls/:id/audit.pdf",
    { preHandler: visits.hook },
    async (request, reply) => {
      const { row: crawl } = visits.of(request);
      const printed = await auditPdfs.print(crawl, chargePdf(quotas, request));
      return sendPrinted(request, reply, printed, (pdf) => auditPdfs.send(reply, crawl.id, pdf));
    },
  );

  app.post<{ Params: { id: string }; Body: Record<string, string | undefined> }>(
    "/crawls/:id/audit/unlock",
    visits.unlock,
  );
}
