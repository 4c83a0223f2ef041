/**
 * The team pages: the user's teams with a form to make one; a team's page with its members (owners change roles
 * and remove; anyone may leave), its open invitations and a form to invite (owners; a new invitation's link shown
 * once, right after), and its activity (owners); the page that asks a signed-in user to join with an
 * invitation's link. A viewer or editor sees no owner controls.
 */
import { teamRoles } from "../../store/schema.js";
import type { ActivityRow, InvitationRow, MemberRow, TeamRow } from "../../teams/team-store.js";
import { html, type SafeHtml } from "../html.js";
import { withReturnPath } from "../return-path.js";
import { alert, csrfField, field, notice, option } from "./forms.js";
import { stacked } from "./stacked-table.js";

export function teamsBody(
  csrf: string,
  teams: TeamRow[],
  form: { name: string; error: string | null },
): SafeHtml {
  return html`<h1>Teams</h1>
<section class="card">
  <h2>Your teams</h2>
  ${
    teams.length === 0
      ? html`<p>You are in no team yet.</p>`
      : stacked(html`<table>
    <thead><tr><th scope="col">Team</th><th scope="col">Your role</th><th scope="col">Members</th></tr></thead>
    <tbody>${teams.map(
      (team) =>
        html`<tr><td><a href="/teams/${team.id}">${team.name}</a></td><td>${team.role}</td><td>${team.members}</td></tr>`,
    )}</tbody>
  </table>`)
  }
</section>
<section class="card">
  <h2>Make a team</h2>
  ${form.error ? alert(form.error) : ""}
  <form method="post" action="/teams" novalidate>
    ${csrfField(csrf)}
    ${field({ name: "name", label: "Name", value: form.name, required: true, maxlength: 100 })}
    <p><button type="submit">Make team</button></p>
  </form>
</section>`;
}

export interface TeamPageView {
  team: TeamRow;
  members: MemberRow[];
  /** Owners only: null for the other roles. */
  invitations: InvitationRow[] | null;
  activity: ActivityRow[] | null;
  userId: number;
  flash: string | null;
  error: string | null;
  /** A new invitation's link, shown once. */
  newInvitation: { email: string; acceptUrl: string; mailed: boolean } | null;
}

export function teamBody(csrf: string, view: TeamPageView): SafeHtml {
  const { team } = view;
  const owner = team.role === "owner";
  const post = (path: string, label: string, extra: SafeHtml | string = "") =>
    html`<form method="post" action="/teams/${team.id}/${path}" class="inline">${csrfField(csrf)}${extra}<button type="submit">${label}</button></form>`;
  return html`<h1>${team.name}</h1>
<p><a href="/teams">All teams</a> · you are ${team.role === "owner" ? "an owner" : `a ${team.role}`}</p>
${view.flash ? notice(view.flash) : ""}
${view.error ? alert(view.error) : ""}
${
  view.newInvitation
    ? html`<section class="card"><p class="notice" role="status">${
        view.newInvitation.mailed
          ? `The invitation was mailed to ${view.newInvitation.email}. Its link, shown only this once:`
          : `Mail is not set up on this server: send ${view.newInvitation.email} this link yourself. It is shown only this once:`
      }</p><p><code class="key" id="invitation-link">${view.newInvitation.acceptUrl}</code></p>
  <p class="muted">It works once, within 7 days, for the person who signs in with that address.</p></section>`
    : ""
}
<section class="card">
  <h2>Members</h2>
  ${stacked(html`<table>
    <thead><tr><th scope="col">Member</th><th scope="col">Role</th><th scope="col">Joined</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
    <tbody>${view.members.map((member) => {
      const self = member.user_id === view.userId;
      const roleForm = owner
        ? post(
            `members/${member.user_id}/role`,
            "Change role",
            html`<label class="visually-hidden" for="role-${member.user_id}">Role of ${member.email}</label><select id="role-${member.user_id}" name="role">${teamRoles.map((role) => option(role, role, member.role))}</select> `,
          )
        : "";
      const remove =
        owner || self ? post(`members/${member.user_id}/remove`, self ? "Leave the team" : "Remove") : "";
      return html`<tr><td>${member.email}</td><td>${member.role}</td><td>${member.joined_at.slice(0, 10)}</td><td>${roleForm} ${remove}</td></tr>`;
    })}</tbody>
  </table>`)}
</section>
${
  view.invitations
    ? html`<section class="card">
  <h2>Invitations</h2>
  ${
    view.invitations.length === 0
      ? html`<p>No open invitations.</p>`
      : stacked(html`<table>
    <thead><tr><th scope="col">Address</th><th scope="col">Role</th><th scope="col">Expires</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
    <tbody>${view.invitations.map(
      (invitation) =>
        html`<tr><td>${invitation.email}</td><td>${invitation.role}</td><td>${invitation.expires_at.slice(0, 10)}</td><td>${post(`invitations/${invitation.id}/revoke`, "Revoke")}</td></tr>`,
    )}</tbody>
  </table>`)
  }
  <form method="post" action="/teams/${team.id}/invitations" novalidate>
    ${csrfField(csrf)}
    ${field({ name: "email", label: "E-mail address", type: "email", required: true, maxlength: 254 })}
    <label for="invite-role">Role</label>
    <select id="invite-role" name="role">${teamRoles.map((role) => option(role, role, "viewer"))}</select>
    <p><button type="submit">Invite</button></p>
  </form>
</section>`
    : ""
}
${
  view.activity
    ? html`<section class="card">
  <h2>Activity</h2>
  ${
    view.activity.length === 0
      ? html`<p>Nothing yet.</p>`
      : stacked(html`<table>
    <thead><tr><th scope="col">When</th><th scope="col">Who</th><th scope="col">What</th><th scope="col">To what</th></tr></thead>
    <tbody>${view.activity.map(
      (entry) =>
        html`<tr><td>${entry.at.slice(0, 19).replace("T", " ")}</td><td>${entry.email ?? "a deleted user"}</td><td>${entry.action}</td><td>${entry.target}</td></tr>`,
    )}</tbody>
  </table>`)
  }
</section>`
    : ""
}`;
}

/**
 * Asks the signed-in user to join with the link's token (a GET never joins anyone); a visitor (no `email`) is
 * told to log in or sign up with the invited address and open the link again.
 */
export function acceptInvitationBody(csrf: string, token: string, email: string | null): SafeHtml {
  if (email === null) {
    // Signing in or up returns here (`next`), where the signed-in user is asked to join.
    const next = `/invitations/accept?token=${token}`;
    return html`<h1>Join a team</h1>
<section class="card">
  <p>You were invited to a team on pagegrade. <a href="${withReturnPath("/login", next)}">Log in</a> or <a href="${withReturnPath("/register", next)}">sign up</a> with the e-mail address the invitation was sent to; you come back to this page to join.</p>
</section>`;
  }
  return html`<h1>Join a team</h1>
<section class="card">
  <p>You are signed in as ${email}. If the invitation was sent to this address, you join its team.</p>
  <form method="post" action="/invitations/accept">
    ${csrfField(csrf)}
    <input type="hidden" name="token" value="${token}">
    <p><button type="submit">Join the team</button></p>
  </form>
</section>`;
}
