/**
 * What every web page knows about its request: the signed-in user (from the session cookie), the workspace they
 * chose (their own, or one of their teams: the `pg_workspace` cookie, checked against their memberships read
 * fresh on every request, so a removed member is back in their own workspace on the next request) and the CSRF
 * token (a random value in its own cookie, echoed by every form; csrf.ts refuses a POST whose field does not
 * match the cookie). The token a form echoes names the workspace it was drawn in (`<token>.<team id>`), so a form
 * drawn in one workspace and posted after a switch (in another tab) is refused as expired instead of acting in
 * the other workspace. Cookies are HttpOnly, SameSite=Lax, and Secure when the request came over TLS.
 */
import { randomBytes } from "node:crypto";
import "@fastify/cookie";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Role } from "../accounts/access.js";
import type { Session, SessionService } from "../accounts/session-service.js";

export const sessionCookie = "pg_session";
export const csrfCookie = "pg_csrf";
export const workspaceCookie = "pg_workspace";

/** A team the signed-in user may switch to, with their role there. */
export interface TeamChoice {
  id: number;
  name: string;
  role: Role;
}

/** The workspaces a signed-in user may act in: their teams (besides their own), and the chosen one. */
export interface WorkspaceChoice {
  teams: TeamChoice[];
  /** The chosen team, or null for the user's own workspace. */
  team: TeamChoice | null;
}

/** The teams a user belongs to (the first `maxSwitcherTeams`, oldest first), read fresh from the database. */
export type TeamsOf = (userId: number) => Promise<TeamChoice[]>;

/** The most teams the switcher lists and a workspace cookie may name (a bound on every page's read). */
export const maxSwitcherTeams = 1000;

declare module "fastify" {
  interface FastifyRequest {
    session: Session | null;
    /** The token every form of this page echoes: the cookie's, and the chosen team's id after a dot. */
    csrfToken: string;
    /** The CSRF cookie's own value, whatever the workspace (the workspace switcher's form is checked by it). */
    csrfBase: string;
    /** The signed-in user's workspaces; null for a visitor. */
    workspaces: WorkspaceChoice | null;
  }
}

export function cookieOptions(request: FastifyRequest, maxAgeSeconds?: number) {
  return {
    path: "/",
    httpOnly: true,
    sameSite: "lax" as const,
    secure: request.protocol === "https",
    ...(maxAgeSeconds !== undefined ? { maxAge: maxAgeSeconds } : {}),
  };
}

/** Loads the session and the chosen workspace, and makes sure the request has a CSRF token. */
export function loadWebContext(sessions: SessionService, teamsOf: TeamsOf) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    request.session = await sessions.find(request.cookies[sessionCookie]);
    request.workspaces = request.session
      ? chosenWorkspace(request, reply, await teamsOf(request.session.account.id))
      : null;
    let token = request.cookies[csrfCookie];
    if (!token || !/^[A-Za-z0-9_-]{43}$/.test(token)) {
      token = randomBytes(32).toString("base64url");
      reply.setCookie(csrfCookie, token, cookieOptions(request));
    }
    request.csrfBase = token;
    const team = request.workspaces?.team;
    request.csrfToken = team ? `${token}.${team.id}` : token;
  };
}

/**
 * The workspace the cookie names, if the user is still a member of that team; a cookie naming anything else (a
 * team they left or were removed from, a forged value) is dropped, and they act in their own workspace.
 */
function chosenWorkspace(request: FastifyRequest, reply: FastifyReply, teams: TeamChoice[]): WorkspaceChoice {
  const chosen = request.cookies[workspaceCookie];
  if (chosen === undefined) return { teams, team: null };
  const team = teamNamed(teams, chosen);
  if (!team) chooseWorkspace(request, reply, null);
  return { teams, team };
}

/** The lists a switch may lead back to; anything else leads to the reports. */
export const workspaceLists = ["/reports", "/projects", "/crawls", "/account/webhooks", "/teams"];

/** The list a page belongs to (its path's first part), where a switch of workspace from it leads. */
export function listOf(path: string): string {
  const bare = path.split(/[?#]/)[0] ?? "";
  return (
    workspaceLists.find((list) => bare === list || bare.startsWith(`${list}/`)) ?? workspaceLists[0] ?? "/"
  );
}

/** The team among `teams` that a form's or the cookie's value names, if any. */
export function teamNamed(teams: TeamChoice[], value: unknown): TeamChoice | null {
  return teams.find((candidate) => String(candidate.id) === value) ?? null;
}

/**
 * Chooses the workspace of the user's next requests: a team's id, or null for their own (the cookie cleared with
 * the attributes it was set with).
 */
export function chooseWorkspace(request: FastifyRequest, reply: FastifyReply, teamId: number | null): void {
  if (teamId === null) reply.clearCookie(workspaceCookie, cookieOptions(request));
  else reply.setCookie(workspaceCookie, String(teamId), cookieOptions(request, 400 * 24 * 3600));
}
