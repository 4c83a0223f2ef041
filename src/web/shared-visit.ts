/**
 * Opening a shared page as a visitor (a report's pages, a crawl's audit), under its password gate
 * (reports/password-gate.ts): private is a 404 to others, a password page asks for its password until the access
 * cookie (scoped to the page's paths) is there, and only public pages may be indexed. The password form's answer
 * sets that cookie, or says the password is wrong, or that too many were (429, with Retry-After).
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import type { GatedRow, PasswordGate } from "../reports/password-gate.js";
import type { SharedShell } from "./layout.js";
import { pathId } from "./path-id.js";
import { notFoundPage, seeOther, sendHtml } from "./render.js";
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
}

/** Whether public pages may be indexed: false for a page that must never be (an audit). */
export interface VisitOptions {
  indexPublic?: boolean;
}

/** The row the visitor may see, or null once the 404 or the password form has been sent. */
export async function visitShared<Row extends GatedRow>(
  gate: PasswordGate<Row>,
  page: SharedPage,
  request: FastifyRequest,
  reply: FastifyReply,
  rawId: string,
  { indexPublic = true }: VisitOptions = {},
): Promise<{ row: Row; owner: boolean } | null> {
  const id = pathId(rawId);
  if (id === null) {
    await notFoundPage(request, reply);
    return null;
  }
  const view = await gate.view(id, request.session?.account.id ?? null, request.cookies[page.cookie(id)]);
  if (view.kind === "missing") {
    await notFoundPage(request, reply);
    return null;
  }
  if (view.kind === "password") {
    reply.header("x-robots-tag", "noindex");
    await sendHtml(
      request,
      reply,
      `Protected ${page.what}`,
      passwordFormBody(request.csrfToken, door(page, id), null),
    );
    return null;
  }
  if (view.row.privacy !== 0 || !indexPublic) reply.header("x-robots-tag", "noindex");
  return { row: view.row, owner: view.owner };
}

/** Answers the password form: the access cookie and a redirect to the page, or the form again saying why not. */
export async function unlockShared<Row extends GatedRow>(
  gate: PasswordGate<Row>,
  page: SharedPage,
  request: FastifyRequest<{ Params: { id: string }; Body: Record<string, string | undefined> }>,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const id = pathId(request.params.id);
  if (id === null) return notFoundPage(request, reply);
  reply.header("x-robots-tag", "noindex");
  const title = `Protected ${page.what}`;
  const outcome = await gate.unlock(id, request.body?.password ?? "", request.ip);
  switch (outcome.kind) {
    case "missing":
      return notFoundPage(request, reply);
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
}

function door(page: SharedPage, id: number): PasswordDoor {
  return { what: page.what, action: page.unlockPath(id) };
}
