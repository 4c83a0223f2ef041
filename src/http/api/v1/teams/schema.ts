/** Request and response schemas of /api/v1/teams (members, invitations, activity) and /api/v1/invitations/accept. */
import { Type } from "typebox";
import { teamRoles } from "../../../../store/schema.js";
import { teamNameMaxLength } from "../../../../teams/team-service.js";
import {
  errorResponses,
  integerEnum,
  paginated,
  perPageValues,
  stringEnum,
  Timestamp,
} from "../common-schema.js";

const role = stringEnum(teamRoles, "owner (everything), editor (create, change, delete), viewer (read)");

const Team = Type.Object(
  {
    object: Type.Literal("team"),
    id: Type.Integer(),
    name: Type.String(),
    role: { ...role, description: "The caller's role in the team" },
    members: Type.Integer({ minimum: 1 }),
    created_at: Timestamp,
  },
  { title: "Team" },
);

const Member = Type.Object(
  {
    object: Type.Literal("member"),
    user_id: Type.Integer(),
    email: Type.String(),
    role,
    joined_at: Timestamp,
  },
  { title: "Member" },
);

const invitationFields = {
  object: Type.Literal("invitation"),
  id: Type.Integer(),
  email: Type.String(),
  role,
  created_at: Timestamp,
  expires_at: Timestamp,
};
const Invitation = Type.Object(invitationFields, { title: "Invitation" });
const CreatedInvitation = Type.Object(
  {
    ...invitationFields,
    accept_url: Type.String({ description: "The one-time link: shown in this response only" }),
    mailed: Type.Boolean({ description: "Whether the link was e-mailed (mail is set up on the server)" }),
  },
  { title: "CreatedInvitation" },
);

const Activity = Type.Object(
  {
    object: Type.Literal("activity"),
    at: Timestamp,
    user_id: Type.Union([Type.Integer(), Type.Null()]),
    email: Type.Union([Type.String(), Type.Null()], { description: "null once the user is deleted" }),
    action: Type.String({ examples: ["member.removed"] }),
    target: Type.String(),
  },
  { title: "Activity" },
);

const ListQuery = Type.Object({
  per_page: Type.Optional(integerEnum(perPageValues, "Results per page (default 10)")),
  page: Type.Optional(Type.Integer({ minimum: 1 })),
});
const TeamParams = Type.Object({ id: Type.Integer({ minimum: 1 }) });
const MemberParams = Type.Object({ id: Type.Integer({ minimum: 1 }), user_id: Type.Integer({ minimum: 1 }) });
const InvitationParams = Type.Object({
  id: Type.Integer({ minimum: 1 }),
  invitation_id: Type.Integer({ minimum: 1 }),
});
const nameField = Type.String({ minLength: 1, maxLength: teamNameMaxLength });
const one = <T extends ReturnType<typeof Type.Object>>(item: T) =>
  Type.Object({ data: item, status: Type.Literal(200) });
const deleted = (object: string) =>
  Type.Object({
    id: Type.Integer(),
    object: Type.Literal(object),
    deleted: Type.Literal(true),
    status: Type.Literal(200),
  });
const tags = ["teams"];

export const createTeam = {
  summary: "Create a team (the caller becomes its owner)",
  tags,
  body: Type.Object({ name: nameField }),
  response: {
    201: Type.Object({ data: Team, status: Type.Literal(201) }),
    ...errorResponses(413, 415, 422),
  },
};

export const listTeams = {
  summary: "List the teams the caller belongs to, with their role",
  tags,
  querystring: ListQuery,
  response: { 200: paginated(Team, "TeamPage"), ...errorResponses(422) },
};

export const showTeam = {
  summary: "Show a team",
  tags,
  params: TeamParams,
  response: { 200: one(Team), ...errorResponses(404) },
};

export const renameTeam = {
  summary: "Rename a team (owners)",
  tags,
  params: TeamParams,
  body: Type.Object({ name: nameField }),
  response: { 200: one(Team), ...errorResponses(403, 404, 413, 415, 422) },
};

export const deleteTeam = {
  summary: "Delete a team and everything in its workspace (owners)",
  tags,
  params: TeamParams,
  response: { 200: deleted("team"), ...errorResponses(403, 404) },
};

export const listMembers = {
  summary: "List a team's members",
  tags,
  params: TeamParams,
  querystring: ListQuery,
  response: { 200: paginated(Member, "MemberPage"), ...errorResponses(404, 422) },
};

export const changeMemberRole = {
  summary: "Change a member's role (owners); a team always keeps an owner",
  tags,
  params: MemberParams,
  body: Type.Object({ role }),
  response: { 200: one(Member), ...errorResponses(403, 404, 413, 415, 422) },
};

export const removeMember = {
  summary: "Remove a member (owners), or leave the team (any member, with their own user_id)",
  tags,
  params: MemberParams,
  response: { 200: deleted("member"), ...errorResponses(403, 404, 422) },
};

export const createInvitation = {
  summary: "Invite an e-mail address with a role (owners); the accept_url is shown once",
  tags,
  params: TeamParams,
  body: Type.Object({ email: Type.String({ maxLength: 254 }), role }),
  response: {
    201: Type.Object({ data: CreatedInvitation, status: Type.Literal(201) }),
    ...errorResponses(403, 404, 413, 415, 422),
  },
};

export const listInvitations = {
  summary: "List a team's open invitations, newest first (owners)",
  tags,
  params: TeamParams,
  querystring: ListQuery,
  response: { 200: paginated(Invitation, "InvitationPage"), ...errorResponses(403, 404, 422) },
};

export const revokeInvitation = {
  summary: "Revoke an open invitation (owners)",
  tags,
  params: InvitationParams,
  response: { 200: deleted("invitation"), ...errorResponses(403, 404) },
};

export const acceptInvitation = {
  summary: "Accept an invitation: the signed-in user whose e-mail it names joins the team",
  tags,
  body: Type.Object({ token: Type.String({ maxLength: 200 }) }),
  response: { 200: one(Team), ...errorResponses(404, 413, 415, 422) },
};

export const listActivity = {
  summary: "List what was done in a team, newest first, for 90 days (owners)",
  tags,
  params: TeamParams,
  querystring: ListQuery,
  response: { 200: paginated(Activity, "ActivityPage"), ...errorResponses(403, 404, 422) },
};
