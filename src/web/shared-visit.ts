/**
 * The visitor pages' side of the access seam, for every shared page (a report's pages, a crawl's audit) under its
 * password gate (reports/password-gate.ts): private is a 404 to others, a password page asks for its password
 * until the access cookie (scoped to the page's paths) is there, and only public pages may be indexed. The
 * password form's answer sets that cookie, or says the password is wrong, or that too many were (429, with
 * Retry-After). A missing page, another's private one and an id of the wrong shape throw ResourceNotFound, which
 * error-handling.ts answers with the not-found page.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import { found } from "../accounts/access.js";
import { ResourceNotFound } from "../errors.js";
import type { GatedRow, PasswordGate } from "../reports/password-gate.js";
import type { SharedShell } from "./layout.js";
import { pathId } from "./path-id.js";
import { seeOther, sendHtml } from "./render.js";
import { type PasswordDoor, passwordFormBody } from "./views/reports.js";
import { cookieOptions } from "./web-context.js";

/** How a kind of shared page is reached and unlocked. */
export interface SharedPage {
  /** "report", "audit". */
  what: string;
  /** The cookie holding an id's access token. */
  cookie(id: number): string;
  /** The paths that cookie is set for (every page and file under the shared page). */
  cookiePaths(id: number): string[];
  /** Where the password form posts, and where it leads once unlocked. */
  unlockPath(id: number): string;
  home(id: number): string;
  /** The page shell its password form is shown in (a shared page's: no navigation); the site's by default. */
  shell?: SharedShell;
  /** Whether a public page may be indexed: false for a page that must never be (an audit). */
  indexPublic: boolean;
}

/** The row a visitor may see, and whether the visitor owns it. */
export interface SharedVisit<Row> {
  row: Row;
  owner: boolean;
}

/**
 * The shared pages of one kind: `hook` is the preHandler of every page under its path a visitor may open; it
 * throws ResourceNotFound for a page the visitor may not see, answers the password form itself (and the route
 * never runs), and otherwise leaves the visit for the handler, read with `of(request)`. `unlock` is the handler
 * of the password form's POST.
 */
export function sharedVisits<Row extends GatedRow>(gate: PasswordGate<Row>, page: SharedPage) {
  const visits = new WeakMap<FastifyRequest, SharedVisit<Row>>();
  const title = `Protected ${page.what}`;

  const hook = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    const id = found(pathId((request.params as { id: string }).id));
    const view = await gate.view(id, request.session?.account.id ?? null, request.cookies[page.cookie(id)]);
    if (view.kind === "missing") throw new ResourceNotFound();
    if (view.kind === "password") {
      reply.header("x-robots-tag", "noindex");
      return sendHtml(
        request,
        reply,
        title,
        passwordFormBody(request.csrfToken, door(page, id), null),
        200,
        page.shell,
      );
    }
    if (view.row.privacy !== 0 || !page.indexPublic) reply.header("x-robots-tag", "noindex");
    visits.set(request, { row: view.row, owner: view.owner });
    return undefined;
  };

  const of = (request: FastifyRequest): SharedVisit<Row> => {
    const visit = visits.get(request);
    if (!visit) throw new Error(`${request.url} reads a visit without the visit hook`);
    return visit;
  };

  /** Answers the password form: the access cookie and a redirect to the page, or the form again saying why not. */
  const unlock = async (
    request: FastifyRequest<{ Params: { id: string }; Body: Record<string, string | undefined> }>,
    reply: FastifyReply,
  ): Promise<FastifyReply> => {
    const id = found(pathId(request.params.id));
    reply.header("x-robots-tag", "noindex");
    const outcome = await gate.unlock(id, request.body?.password ?? "", request.ip);
    switch (outcome.kind) {
      case "missing":
        throw new ResourceNotFound();
      case "locked":
        reply.header("retry-after", String(outcome.retryAfterSeconds));
        return sendHtml(
          request,
          reply,
          title,
          passwordFormBody(
            request.csrfToken,
            door(page, id),
            `Too many wrong passwords. Try again in ${Math.ceil(outcome.retryAfterSeconds / 60)} minutes.`,
          ),
          429,
          page.shell,
        );
      case "wrong":
        return sendHtml(
          request,
          reply,
          title,
          passwordFormBody(request.csrfToken, door(page, id), "The password is not correct."),
          401,
          page.shell,
        );
      case "unlocked":
        for (const path of page.cookiePaths(id)) {
          reply.setCookie(page.cookie(id), outcome.token, { ...cookieOptions(request, 7 * 24 * 3600), path });
        }
        return seeOther(reply, page.home(id));
    }
  };

  return { hook, of, unlock };
}

function door(page: SharedPage, id: number): PasswordDoor {
  return { what: page.what, action: page.unlockPath(id) };
}
