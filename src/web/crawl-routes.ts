/**
 * Crawls as pages, for the signed-in user: the list with the start form (`?project=` shows a project's crawls
 * over time and fills the form with its home page), one crawl (live while it runs, then its report with its page
 * checks rolled up and its first links; crawl-findings-routes.ts pages them), its pages, issues, roll-up, a
 * check's failing pages and its links (filtered as on their page) as CSV, cancel and delete. The rules are the CrawlService's, as in the API.
 */
import multipart from "@fastify/multipart";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { found as existing, type Intent, type Workspace } from "../accounts/access.js";
import type { SessionService } from "../accounts/session-service.js";
import type { Analyzer } from "../analysis/analyse.js";
import { isPageCheck } from "../crawls/check-rollup.js";
import { CrawlNotComplete } from "../crawls/crawl-diff.js";
import { streamCrawlEvents } from "../crawls/crawl-event-stream.js";
import type { CrawlFindings } from "../crawls/crawl-findings.js";
import { type CrawlPageQuery, crawlPageSorts, crawlPageStates } from "../crawls/crawl-listing-store.js";
import { CrawlFinished, type CrawlService } from "../crawls/crawl-service.js";
import type { CrawlRow } from "../crawls/crawl-store.js";
import { extractionNames, siteIssueObject } from "../crawls/present.js";
import { ValidationFailed } from "../errors.js";
import { sendCsvStream } from "../http/send-csv.js";
import type { Quotas } from "../limits/quotas.js";
import { linkFilterOf } from "./crawl-findings-routes.js";
import { seeOther, sendHtml } from "./render.js";
import { signedInSession } from "./signed-in.js";
import { typedUrl } from "./typed-url.js";
import { crawlDiffBody, crawlDiffRefusal } from "./views/crawl-diff.js";
import { checkRollupTable, linksOnCrawlPage, rollupShown } from "./views/crawl-findings.js";
import { type CrawlForm, crawlBody, crawlListBody, pageTablePageSize } from "./views/crawls.js";
import { fixFirstSection, fixFirstShown } from "./views/fix-first.js";
import { confirmBody } from "./views/forms.js";
import type { WebAccess } from "./web-access.js";

export interface CrawlRouteOptions {
  sessions: SessionService;
  crawls: CrawlService;
  crawlFindings: CrawlFindings;
  analyzer: Analyzer;
  quotas: Quotas;
  /** Aborted when the service closes: ends the event streams. */
  closing: AbortSignal;
  resources: WebAccess;
}

type Form = Record<string, string | string[] | Buffer | undefined>;
/** The most a pasted or uploaded list of URLs may hold: what the API takes in a body. */
const maxListBytes = 1024 * 1024;
const listPageSize = 25;

export async function crawlRoutes(
  app: FastifyInstance,
  { sessions, crawls, crawlFindings, analyzer, quotas, closing, resources }: CrawlRouteOptions,
): Promise<void> {
  const showList = async (
    request: FastifyRequest<{ Querystring: Record<string, string | undefined> }>,
    reply: FastifyReply,
    form?: CrawlForm,
    status = 200,
  ) => {
    const session = signedInSession(request);
    const project = (request.query.project ?? "").trim().toLowerCase().slice(0, 255);
    const page = /^[1-9][0-9]{0,8}$/.test(request.query.page ?? "") ? Number(request.query.page) : 1;
    const workspace = await resources.workspace(request);
    const { rows, total } = await crawls.list(workspace, {
      ...(project ? { project } : {}),
      direction: "desc",
      limit: listPageSize,
      offset: (page - 1) * listPageSize,
    });
    const flash = await sessions.takeFlash(session.token);
    const view = {
      crawls: rows,
      total,
      page,
      project,
      form: form ?? emptyForm(project ? `https://${project}/` : ""),
      renderingAvailable: analyzer.renderingAvailable(),
      flash,
      readOnly: workspace.role === "viewer",
    };
    return sendHtml(
      request,
      reply,
      project ? `Crawls of ${project}` : "Crawls",
      crawlListBody(request.csrfToken, view),
      status,
    );
  };

  /** The workspace's crawl named in the path, with the workspace (its user: the signed-in one) and the session's token. */
  const owned = async (
    request: FastifyRequest,
    intent: Intent = "read",
  ): Promise<{ workspace: Workspace; token: string; crawl: CrawlRow }> => {
    const crawl = await resources.crawl(request, intent);
    const workspace = await resources.workspace(request, intent);
    return { workspace, token: signedInSession(request).token, crawl };
  };

  /** A crawl's CSV download: the caller's crawl, then its rows as `crawl-{id}-{name}.csv`, never cached. */
  const csvDownload = <Params>(
    url: string,
    name: (crawl: CrawlRow, request: FastifyRequest<{ Params: Params }>) => string,
    rows: (
      crawl: CrawlRow,
      request: FastifyRequest<{ Params: Params; Querystring: Record<string, string | undefined> }>,
    ) => Promise<AsyncIterable<string>>,
  ) =>
    app.get<{ Params: Params; Querystring: Record<string, string | undefined> }>(
      url,
      async (request, reply) => {
        const crawl = await resources.crawl(request);
        const chunks = await rows(crawl, request);
        return sendCsvStream(
          reply.header("cache-control", "no-store"),
          `crawl-${crawl.id}-${name(crawl, request)}.csv`,
          chunks,
        );
      },
    );

  app.get<{ Querystring: Record<string, string | undefined> }>("/crawls", async (request, reply) =>
    showList(request, reply),
  );

  // The start form is multipart (a list of URLs may come as a file): parsed in this route's scope only, into
  // plain fields (the file's bytes as a Buffer), so the CSRF check reads its token as from any form.
  await app.register(async (scope) => {
    await scope.register(multipart, {
      attachFieldsToBody: "keyValues",
      limits: { fileSize: maxListBytes, files: 1, fields: 20, fieldSize: maxListBytes, parts: 21 },
    });
    scope.post<{ Body: Form; Querystring: Record<string, string | undefined> }>(
      "/crawls",
      { bodyLimit: 2 * maxListBytes },
      async (request, reply) => {
        const session = signedInSession(request);
        const form = formOf(request.body);
        try {
          const list = [form.urls, form.urlsFile].filter(Boolean).join("\n");
          // The crawl-starts quota is charged once the crawl is valid (the service calls it): a refusal is free.
          const charge = () => quotas.charge("crawl-starts", { userId: session.account.id });
          const workspace = await resources.workspace(request, "write");
          const crawl = await crawls.create(
            workspace,
            {
              ...(form.url || !list ? { url: form.url } : {}),
              ...(list ? { urls: list } : {}),
              ...(form.extract ? { extract: form.extract } : {}),
              ...(form.max_pages ? { max_pages: wholeOrNaN(form.max_pages) } : {}),
              ...(form.max_depth ? { max_depth: wholeOrNaN(form.max_depth) } : {}),
              include: lines(form.include),
              exclude: lines(form.exclude),
              mode: form.mode,
              // Read from the body only: a form shown again never holds the values.
              headers: lines([request.body.headers ?? ""].flat().join("\n")),
            },
            charge,
          );
          return seeOther(reply, `/crawls/${crawl.id}`);
        } catch (error) {
          // The form shown again with the message (a crawl limit reached is error-handling.ts's quota page).
          if (!(error instanceof ValidationFailed)) throw error;
          const { urlsFile: _file, ...shown } = form;
          return showList(request, reply, { ...shown, error: error.message }, 422);
        }
      },
    );
  });

  app.get<{ Params: { id: string }; Querystring: Record<string, string | undefined> }>(
    "/crawls/:id",
    async (request, reply) => {
      const found = await owned(request);
      const { crawl } = found;
      const issues = await crawls.issues(crawl.id);
      const table = tableState(
        request.query,
        issues.map((issue) => issue.check_id),
      );
      const issue = issues.find((row) => row.check_id === table.issue);
      const query: CrawlPageQuery = {
        ...(table.status ? { status: table.status as CrawlPageQuery["status"] } : {}),
        ...(issue ? { urls: issueUrls(siteIssueObject(issue).items) } : {}),
        sort: table.sort as CrawlPageQuery["sort"],
        direction: table.direction as "asc" | "desc",
        limit: pageTablePageSize,
        offset: (table.page - 1) * pageTablePageSize,
      };
      const { rows, total } = await crawls.pageTable(crawl.id, query);
      const overview = await crawls.overview(crawl.id);
      const finished = crawl.status !== "queued" && crawl.status !== "running";
      const checksPage = /^[1-9][0-9]{0,5}$/.test(request.query.checks ?? "")
        ? Number(request.query.checks)
        : 1;
      const rollup = finished
        ? await crawlFindings.checks(crawl.id, { limit: rollupShown, offset: (checksPage - 1) * rollupShown })
        : null;
      const fixes = finished ? await crawlFindings.fixFirst(crawl.id) : null;
      // "What changed" only when there is an earlier complete crawl of the project to compare with.
      const hasPrevious =
        crawl.status === "complete" &&
        (
          await crawls.list(found.workspace, {
            project: crawl.project,
            direction: "desc",
            limit: 50,
            offset: 0,
          })
        ).rows.some(
          (row) =>
            row.id !== crawl.id &&
            row.status === "complete" &&
            (row.finished_at ?? "") < (crawl.finished_at ?? ""),
        );
      const links = await crawlFindings.firstLinks(crawl.id, linksOnCrawlPage);
      const flash = await sessions.takeFlash(found.token);
      const issueTable = {
        open: issues.some((row) => row.check_id === request.query.open) ? (request.query.open as string) : "",
        items: /^[1-9][0-9]{0,5}$/.test(request.query.items ?? "") ? Number(request.query.items) : 1,
      };
      const view = {
        crawl,
        overview,
        issues,
        issueTable,
        ...(rollup
          ? { checkRollup: checkRollupTable(crawl.id, rollup.rows, rollup.total, checksPage, request.query) }
          : {}),
        ...(fixes
          ? { fixFirst: fixFirstSection(crawl.id, fixes.slice(0, fixFirstShown), fixes.length) }
          : {}),
        hasPrevious,
        links,
        pages: rows,
        pageTotal: total,
        table,
        flash,
        now: Date.now(),
        readOnly: found.workspace.role === "viewer",
      };
      return sendHtml(request, reply, `Crawl of ${crawl.project}`, crawlBody(request.csrfToken, view));
    },
  );

  app.get<{ Params: { id: string }; Querystring: Record<string, string | undefined> }>(
    "/crawls/:id/diff",
    async (request, reply) => {
      const found = await owned(request);
      const { crawl, workspace } = found;
      const title = `What changed on ${crawl.project}`;
      const from = request.query.from;
      try {
        const fromId =
          from === undefined || from === "" ? undefined : /^[1-9]\d{0,15}$/.test(from) ? Number(from) : 0;
        const diff = existing(await crawls.comparison.diff(workspace, crawl.id, fromId));
        const reports = await crawls.comparison.reportsOf(diff);
        return sendHtml(request, reply, title, crawlDiffBody({ crawl, diff, reports }));
      } catch (error) {
        if (!(error instanceof ValidationFailed || error instanceof CrawlNotComplete)) throw error;
        return sendHtml(request, reply, title, crawlDiffRefusal(crawl, error.message), error.status);
      }
    },
  );
  // The crawl page's live progress: the API's event stream, for the signed-in owner.
  app.get<{ Params: { id: string } }>("/crawls/:id/events", async (request, reply) => {
    const found = await owned(request);
    const release = quotas.openStream(found.workspace.userId);
    reply.hijack();
    await streamCrawlEvents(request.raw, reply.raw, request.id, {
      reload: () => crawls.showSummary(found.workspace, found.crawl.id),
      closing,
      release,
    });
    return reply;
  });

  csvDownload(
    "/crawls/:id/pages.csv",
    () => "pages",
    async (crawl) => crawlFindings.pagesCsv(crawl.id, extractionNames(crawl)),
  );
  csvDownload(
    "/crawls/:id/issues.csv",
    () => "issues",
    async (crawl) => crawlFindings.issuesCsv(crawl.id),
  );
  csvDownload(
    "/crawls/:id/checks.csv",
    () => "checks",
    async (crawl) => {
      const { rows } = await crawlFindings.checks(crawl.id, { limit: Number.MAX_SAFE_INTEGER, offset: 0 });
      return crawlFindings.checksCsv(rows);
    },
  );
  // An unknown check names nothing under the crawl: the same 404 as an unknown crawl.
  csvDownload<{ id: string; check: string }>(
    "/crawls/:id/checks/:check/pages.csv",
    (_crawl, request) => `${request.params.check}-pages`,
    async (crawl, request) =>
      crawlFindings.checkPagesCsv(
        crawl.id,
        existing(isPageCheck(request.params.check) && request.params.check),
      ),
  );
  csvDownload(
    "/crawls/:id/links.csv",
    () => "links",
    async (crawl, request) => crawlFindings.linksCsv(crawl.id, linkFilterOf(request.query).filter),
  );

  app.post<{ Params: { id: string } }>("/crawls/:id/cancel", async (request, reply) => {
    const found = await owned(request, "write");
    try {
      await crawls.cancel(found.workspace, found.crawl.id);
      await sessions.setFlash(found.token, "The crawl is stopping; what it analysed is kept.");
    } catch (error) {
      if (!(error instanceof CrawlFinished)) throw error;
      await sessions.setFlash(found.token, "The crawl had already finished.");
    }
    return seeOther(reply, `/crawls/${found.crawl.id}`);
  });

  app.get<{ Params: { id: string } }>("/crawls/:id/delete", async (request, reply) => {
    // The question is asked only of who may delete: a viewer gets the 403 page here, not at the answer.
    const found = await owned(request, "write");
    const path = `/crawls/${found.crawl.id}`;
    return sendHtml(
      request,
      reply,
      "Delete crawl",
      confirmBody(request.csrfToken, `Delete the crawl of ${found.crawl.url}?`, `${path}/delete`, path, {
        consequence:
          "Its page list and site issues go; the reports of its pages stay. This cannot be undone.",
      }),
    );
  });

  app.post<{ Params: { id: string } }>("/crawls/:id/delete", async (request, reply) => {
    const found = await owned(request, "write");
    await crawls.delete(found.workspace, found.crawl.id);
    await sessions.setFlash(found.token, "The crawl was deleted; the reports of its pages stay.");
    return seeOther(reply, `/crawls?project=${encodeURIComponent(found.crawl.project)}`);
  });
}

function emptyForm(url: string): CrawlForm {
  return {
    url,
    max_pages: "500",
    max_depth: "10",
    include: "",
    exclude: "",
    mode: "raw",
    urls: "",
    extract: "",
    error: null,
  };
}

/** The form's fields; an uploaded list of URLs (`urls_file`) read as UTF-8 text. */
function formOf(body: Form): CrawlForm & { urlsFile: string } {
  const text = (name: string) => {
    const value = body[name];
    return typeof value === "string" ? value.trim() : "";
  };
  const file = body.urls_file;
  return {
    urls: text("urls"),
    urlsFile: Buffer.isBuffer(file) ? file.toString("utf8").trim() : "",
    extract: text("extract"),
    url: typedUrl(text("url")),
    max_pages: text("max_pages"),
    max_depth: text("max_depth"),
    include: text("include"),
    exclude: text("exclude"),
    mode: text("mode") || "raw",
    error: null,
  };
}

/** A form's number as the service checks it: a whole number, or NaN (which the service refuses, naming the field). */
function wholeOrNaN(text: string): number {
  return /^\d{1,9}$/.test(text) ? Number(text) : Number.NaN;
}

function lines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
}

/** The pages table's state from the query string; a value that is not allowed falls back to the default. */
function tableState(query: Record<string, string | undefined>, checks: string[]) {
  const pick = (value: string | undefined, allowed: readonly string[], fallback: string) =>
    value !== undefined && allowed.includes(value) ? value : fallback;
  return {
    status: pick(query.status, crawlPageStates, ""),
    issue: pick(query.issue, checks, ""),
    sort: pick(query.sort, crawlPageSorts, "id"),
    direction: pick(query.direction, ["asc", "desc"], "asc"),
    page: /^[1-9][0-9]{0,8}$/.test(query.page ?? "") ? Number(query.page) : 1,
  };
}

/** The pages an issue's items name: each item's URL, or every page of a group. */
function issueUrls(items: Array<Record<string, unknown>>): string[] {
  return items.flatMap((item) =>
    typeof item.url === "string" ? [item.url] : Array.isArray(item.pages) ? (item.pages as string[]) : [],
  );
}
