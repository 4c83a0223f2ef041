/**
 * /api/v1/teams (show, list, rename, delete), a team's members, invitations and activity, and
 * /api/v1/invitations/accept. Thin: schema, service call, present. The service's errors (a non-member's
 * ResourceNotFound, a role too low's AccessDenied naming the role needed) are answered by error-handling.ts.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from "fastify";
import type { TeamRole } from "../../../../store/schema.js";
import type { TeamService, TeamUser } from "../../../../teams/team-service.js";
import { sendPage } from "../../../pagination.js";
import { activityObject, invitationObject, memberObject, teamObject } from "./present.js";
import {
  acceptInvitation,
  changeMemberRole,
  createInvitation,
  createTeam,
  deleteTeam,
  listActivity,
  listInvitations,
  listMembers,
  listTeams,
  removeMember,
  renameTeam,
  revokeInvitation,
  showTeam,
} from "./schema.js";

export interface TeamRouteOptions {
  teams: TeamService;
  /** Counts team creations and invitations against the caller's quotas (429 past them). */
  chargeTeamCreation: preHandlerAsyncHookHandler;
  chargeInvitation: preHandlerAsyncHookHandler;
}

interface PageQuery {
  per_page?: number;
  page?: number;
}
type TeamParams = { id: number };
type TeamList<Row> = (
  user: TeamUser,
  teamId: number,
  page: { limit: number; offset: number },
) => Promise<{ rows: Row[]; total: number }>;

export async function teamRoutes(app: FastifyInstance, options: TeamRouteOptions): Promise<void> {
  const { teams } = options;

  /** Sends one page of a list, its items made by `present`. */
  const listed = async <Row>(
    request: FastifyRequest<{ Querystring: PageQuery }>,
    reply: FastifyReply,
    list: (page: { limit: number; offset: number }) => Promise<{ rows: Row[]; total: number }>,
    present: (row: Row) => unknown,
  ) => {
    const page = request.query.page ?? 1;
    const perPage = request.query.per_page ?? 10;
    const { rows, total } = await list({ limit: perPage, offset: (page - 1) * perPage });
    const items = rows.map((row) => JSON.stringify(present(row)));
    return sendPage(request, reply, { page, perPage, params: [["per_page", String(perPage)]] }, items, total);
  };

  app.post<{ Body: { name: string } }>(
    "/teams",
    { schema: createTeam, preHandler: options.chargeTeamCreation },
    async (request, reply) => {
      const team = await teams.create(request.account, request.body.name);
      return reply
        .code(201)
        .header("location", `/api/v1/teams/${team.id}`)
        .send({ data: teamObject(team), status: 201 });
    },
  );

  app.get<{ Querystring: PageQuery }>("/teams", { schema: listTeams }, async (request, reply) =>
    listed(request, reply, (page) => teams.list(request.account, page), teamObject),
  );

  app.get<{ Params: TeamParams }>("/teams/:id", { schema: showTeam }, async (request, reply) => {
    const team = await teams.show(request.account, request.params.id);
    return reply.send({ data: teamObject(team), status: 200 });
  });

  app.patch<{ Params: TeamParams; Body: { name: string } }>(
    "/teams/:id",
    { schema: renameTeam },
    async (request, reply) => {
      const team = await teams.rename(request.account, request.params.id, request.body.name);
      return reply.send({ data: teamObject(team), status: 200 });
    },
  );

  app.delete<{ Params: TeamParams }>("/teams/:id", { schema: deleteTeam }, async (request, reply) => {
    await teams.delete(request.account, request.params.id);
    return reply.send({ id: request.params.id, object: "team", deleted: true, status: 200 });
  });

  app.patch<{ Params: TeamParams & { user_id: number }; Body: { role: TeamRole } }>(
    "/teams/:id/members/:user_id",
    { schema: changeMemberRole },
    async (request, reply) => {
      const { id, user_id } = request.params;
      const member = await teams.changeRole(request.account, id, user_id, request.body.role);
      return reply.send({ data: memberObject(member), status: 200 });
    },
  );

  app.delete<{ Params: TeamParams & { user_id: number } }>(
    "/teams/:id/members/:user_id",
    { schema: removeMember },
    async (request, reply) => {
      const { id, user_id } = request.params;
      await teams.removeMember(request.account, id, user_id);
      return reply.send({ id: user_id, object: "member", deleted: true, status: 200 });
    },
  );

  app.post<{ Params: TeamParams; Body: { email: string; role: TeamRole } }>(
    "/teams/:id/invitations",
    { schema: createInvitation, preHandler: options.chargeInvitation },
    async (request, reply) => {
      const origin = `${request.protocol}://${request.host}`;
      const created = await teams.invite(request.account, request.params.id, request.body, origin);
      const data = {
        ...invitationObject(created.invitation),
        accept_url: created.acceptUrl,
        mailed: created.mailed,
      };
      return reply
        .code(201)
        .header("location", `/api/v1/teams/${request.params.id}/invitations/${created.invitation.id}`)
        .send({ data, status: 201 });
    },
  );

  app.delete<{ Params: TeamParams & { invitation_id: number } }>(
    "/teams/:id/invitations/:invitation_id",
    { schema: revokeInvitation },
    async (request, reply) => {
      const { id, invitation_id } = request.params;
      await teams.revoke(request.account, id, invitation_id);
      return reply.send({ id: invitation_id, object: "invitation", deleted: true, status: 200 });
    },
  );

  app.post<{ Body: { token: string } }>(
    "/invitations/accept",
    { schema: acceptInvitation },
    async (request, reply) => {
      const team = await teams.accept(request.account, request.body.token);
      return reply.send({ data: teamObject(team), status: 200 });
    },
  );

  /** A list of the team's (members, invitations, activity), each call checking the caller's role afresh. */
  const teamList = <Row>(path: string, schema: object, list: TeamList<Row>, present: (row: Row) => unknown) =>
    app.get<{ Params: TeamParams; Querystring: PageQuery }>(
      `/teams/:id/${path}`,
      { schema },
      async (request, reply) =>
        listed(request, reply, (page) => list(request.account, request.params.id, page), present),
    );
  teamList("members", listMembers, (user, id, page) => teams.members(user, id, page), memberObject);
  teamList(
    "invitations",
    listInvitations,
    (user, id, page) => teams.invitations(user, id, page),
    invitationObject,
  );
  teamList("activity", listActivity, (user, id, page) => teams.activity(user, id, page), activityObject);
}
