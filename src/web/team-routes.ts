/**
 * The team pages (signed-in scope): the user's teams and making one, a team's page (members and roles,
 * invitations with the new link shown once in the answer to the POST that made it, activity), and accepting an
 * invitation's link. The rules are the TeamService's, as in the API: a team the user is not in is the 404 page,
 * a role too low a 403 page naming the role, a rule broken (the last owner, a bad address) the page again with
 * its message and 422. The invitation link's own page is for anyone (`invitationLinkRoute`).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { SessionService } from "../accounts/session-service.js";
import { ResourceNotFound, ValidationFailed } from "../errors.js";
import type { Quotas } from "../limits/quotas.js";
import { type TeamRole, teamRoles } from "../store/schema.js";
import { can } from "../teams/team-access.js";
import type { TeamService } from "../teams/team-service.js";
import { pathId } from "./path-id.js";
import { seeOther, sendHtml } from "./render.js";
import { signedInSession } from "./signed-in.js";
import { acceptInvitationBody, type TeamPageView, teamBody, teamsBody } from "./views/teams.js";

export interface TeamRouteOptions {
  sessions: SessionService;
  teams: TeamService;
  quotas: Quotas;
}

type Form = Record<string, string | string[] | undefined>;
type TeamRequest = FastifyRequest<{ Params: { id: string }; Body: Form }>;

const text = (form: Form | undefined, name: string) => {
  const value = form?.[name];
  return typeof value === "string" ? value : "";
};
const firstPage = { limit: 100, offset: 0 };

export async function teamRoutes(
  app: FastifyInstance,
  { sessions, teams, quotas }: TeamRouteOptions,
): Promise<void> {
  await app.register(async (scope) => {
    const showTeams = async (
      request: FastifyRequest,
      reply: FastifyReply,
      form = { name: "", error: null as string | null },
      status = 200,
    ) => {
      const { account } = signedInSession(request);
      const { rows } = await teams.list(account, firstPage);
      return sendHtml(request, reply, "Teams", teamsBody(request.csrfToken, rows, form), status);
    };

    const showTeam = async (
      request: TeamRequest,
      reply: FastifyReply,
      extra: Pick<TeamPageView, "error" | "newInvitation"> = { error: null, newInvitation: null },
      status = 200,
    ) => {
      const session = signedInSession(request);
      const team = await teams.show(session.account, teamIdOf(request));
      const manager = can(team.role, "manage");
      const [members, invitations, activity] = await Promise.all([
        teams.members(session.account, team.id, firstPage),
        manager ? teams.invitations(session.account, team.id, firstPage) : null,
        manager ? teams.activity(session.account, team.id, { limit: 50, offset: 0 }) : null,
      ]);
      const view: TeamPageView = {
        team,
        members: members.rows,
        invitations: invitations?.rows ?? null,
        activity: activity?.rows ?? null,
        userId: session.account.id,
        flash: await sessions.takeFlash(session.token),
        ...extra,
      };
      return sendHtml(request, reply, team.name, teamBody(request.csrfToken, view), status);
    };

    /** Runs a change, then back to the team page with `done` as its message; a broken rule shows the page again. */
    const change = async (request: TeamRequest, reply: FastifyReply, work: () => Promise<string>) => {
      try {
        const done = await work();
        await sessions.setFlash(signedInSession(request).token, done);
      } catch (error) {
        if (!(error instanceof ValidationFailed)) throw error;
        return showTeam(request, reply, { error: error.message, newInvitation: null }, 422);
      }
      return seeOther(reply, `/teams/${teamIdOf(request)}`);
    };

    scope.get("/teams", async (request, reply) => showTeams(request, reply));

    scope.post<{ Body: Form }>("/teams", async (request, reply) => {
      const { account } = signedInSession(request);
      const name = text(request.body, "name");
      try {
        await quotas.charge("team-creations", { userId: account.id });
        const team = await teams.create(account, name);
        return seeOther(reply, `/teams/${team.id}`);
      } catch (error) {
        if (!(error instanceof ValidationFailed)) throw error;
        return showTeams(request, reply, { name, error: error.message }, 422);
      }
    });

    scope.get<{ Params: { id: string } }>("/teams/:id", async (request, reply) =>
      showTeam(request as TeamRequest, reply),
    );

    scope.post<{ Params: { id: string }; Body: Form }>("/teams/:id/invitations", async (request, reply) => {
      const { account } = signedInSession(request);
      const teamId = teamIdOf(request);
      const email = text(request.body, "email").trim();
      const role = roleOf(request.body);
      try {
        await quotas.charge("invitations", { userId: account.id });
        const created = await teams.invite(
          account,
          teamId,
          { email, role },
          `${request.protocol}://${request.host}`,
        );
        const newInvitation = {
          email: created.invitation.email,
          acceptUrl: created.acceptUrl,
          mailed: created.mailed,
        };
        // Shown in this answer only: the link never passes through the session store.
        return showTeam(request, reply, { error: null, newInvitation });
      } catch (error) {
        if (!(error instanceof ValidationFailed)) throw error;
        return showTeam(request, reply, { error: error.message, newInvitation: null }, 422);
      }
    });

    scope.post<{ Params: { id: string; invitation: string }; Body: Form }>(
      "/teams/:id/invitations/:invitation/revoke",
      async (request, reply) =>
        change(request, reply, async () => {
          await teams.revoke(
            signedInSession(request).account,
            teamIdOf(request),
            idOf(request.params.invitation),
          );
          return "The invitation was revoked.";
        }),
    );

    scope.post<{ Params: { id: string; user: string }; Body: Form }>(
      "/teams/:id/members/:user/role",
      async (request, reply) =>
        change(request, reply, async () => {
          const member = await teams.changeRole(
            signedInSession(request).account,
            teamIdOf(request),
            idOf(request.params.user),
            roleOf(request.body),
          );
          return `${member.email} is now ${member.role === "owner" ? "an owner" : `a ${member.role}`}.`;
        }),
    );

    scope.post<{ Params: { id: string; user: string }; Body: Form }>(
      "/teams/:id/members/:user/remove",
      async (request, reply) => {
        const { account } = signedInSession(request);
        const userId = idOf(request.params.user);
        if (userId === account.id) {
          try {
            await teams.removeMember(account, teamIdOf(request), userId);
          } catch (error) {
            if (!(error instanceof ValidationFailed)) throw error;
            return showTeam(request, reply, { error: error.message, newInvitation: null }, 422);
          }
          await sessions.setFlash(signedInSession(request).token, "You left the team.");
          return seeOther(reply, "/teams");
        }
        return change(request, reply, async () => {
          await teams.removeMember(account, teamIdOf(request), userId);
          return "The member was removed.";
        });
      },
    );

    scope.post<{ Body: Form }>("/invitations/accept", async (request, reply) => {
      const session = signedInSession(request);
      const team = await teams.accept(session.account, text(request.body, "token").slice(0, 200));
      await sessions.setFlash(session.token, `You joined ${team.name} as ${team.role}.`);
      return seeOther(reply, `/teams/${team.id}`);
    });
  });
}

/**
 * The invitation link's page, for anyone: a signed-in user is asked to join (a GET never joins anyone); a visitor
 * is told to log in or sign up with the invited address and open the link again.
 */
export async function invitationLinkRoute(app: FastifyInstance): Promise<void> {
  app.get<{ Querystring: { token?: string } }>("/invitations/accept", async (request, reply) => {
    const token = typeof request.query.token === "string" ? request.query.token : "";
    if (!/^[A-Za-z0-9_-]{43}$/.test(token)) throw new ResourceNotFound();
    const email = request.session?.account.email ?? null;
    return sendHtml(request, reply, "Join a team", acceptInvitationBody(request.csrfToken, token, email));
  });
}

function teamIdOf(request: FastifyRequest<{ Params: { id: string } }>): number {
  return idOf(request.params.id);
}

/** A path id, or ResourceNotFound (answered as the 404 page) for one that names nothing. */
function idOf(raw: string): number {
  const id = pathId(raw);
  if (id === null) throw new ResourceNotFound();
  return id;
}

function roleOf(form: Form | undefined): TeamRole {
  const role = text(form, "role");
  if (!(teamRoles as readonly string[]).includes(role)) {
    throw ValidationFailed.of("role", `The role must be one of ${teamRoles.join(", ")}.`);
  }
  return role as TeamRole;
}
