/**
 * Resource access in one place: the workspace a request acts in (computed once per request) and the loading of
 * the resource its path names within that workspace. A resource that is missing, or that belongs to another
 * workspace, throws ResourceNotFound (the same 404 for both, answered by error-handling.ts); a write by a member
 * who may only read throws AccessDenied (403). Handlers receive the resource and never check ownership.
 *
 * The workspace (api-contract part 4): without a team selector, the signed-in user's own, with every right;
 * with one (`team={id}`), that team's, with the member's role current on every request (read from the database,
 * or from teams/membership-memory.ts while nothing changed, so a removed member's next request is refused),
 * together with the team's reports version (what the response cache keys a team's answers by). A team the user is not in, or a selector that names no
 * team, is the same 404 as a missing resource. Stores scope by the workspace (store/owned-rows.ts `inWorkspace`).
 * Framework-free, so the API and the web (which may not import each other) share it.
 */
import { AccessDenied, ResourceNotFound } from "../errors.js";
import type { WorkspaceScope } from "../store/owned-rows.js";

/** What a member may do: owners and editors write, viewers only read. */
export type Role = "owner" | "editor" | "viewer";

/** What the request does to the resource: reads are allowed to every member, writes to owners and editors. */
export type Intent = "read" | "write";

/**
 * The signed-in user behind a request (an API key's owner or a web session's) and the workspace they chose:
 * `team` is the raw selector (the `team` query parameter, or the web's chosen workspace), absent for their own.
 */
export interface Actor {
  userId: number;
  team?: unknown;
}

/**
 * Where a request acts: whose resources it sees (`userId` and `teamId`, the stores' scope: `teamId` null for the
 * user's own workspace) and the role it acts with.
 */
export interface Workspace extends WorkspaceScope {
  readonly role: Role;
  /**
   * A team workspace's reports version, read with the role (migration 038): it changes with any change to the
   * team's reports and analyses. Absent for the user's own workspace, whose version comes with the user.
   */
  readonly reportsVersion?: number;
}

/** A member's role in a team and the team's reports version, read together. */
export interface Member {
  role: Role;
  reportsVersion: number;
}

/** A user's membership of a team, certainly current; null when they are not a member (or there is no team). */
export type Membership = (userId: number, teamId: number) => Promise<Member | null>;

/** The team id a selector names; null for one that names none (not a positive integer, a repeated parameter). */
export function teamSelected(selector: unknown): number | null {
  if (typeof selector !== "string" || !/^[1-9][0-9]{0,14}$/.test(selector)) return null;
  return Number(selector);
}

/** The workspace an actor acts in: their own as its owner, or the selected team's with their role there. */
export async function resolveWorkspace(actor: Actor, membership: Membership): Promise<Workspace> {
  if (actor.team === undefined) return { userId: actor.userId, teamId: null, role: "owner" };
  const teamId = found(teamSelected(actor.team));
  const { role, reportsVersion } = found(await membership(actor.userId, teamId));
  return { userId: actor.userId, teamId, role, reportsVersion };
}

/** Refuses a write by a member who may only read (a 403 naming the editor role). */
export function authorise(workspace: Workspace, intent: Intent): Workspace {
  if (intent === "write" && workspace.role === "viewer") throw new AccessDenied("editor");
  return workspace;
}

/** The value, or ResourceNotFound when there is none (undefined, null, false, 0: a lookup or delete that hit nothing). */
export function found<T>(value: T | undefined | null | false | 0): T {
  if (value === undefined || value === null || value === false || value === 0) throw new ResourceNotFound();
  return value;
}

/** Loads a resource by its id within a workspace; undefined or null when the workspace has no such resource. */
export type ResourceLoader<Resource, Id> = (
  workspace: Workspace,
  id: Id,
) => Promise<Resource | undefined | null>;

/**
 * The access of one face: `workspace(request, intent)` and `resource(idOf, load)`, which makes a typed accessor
 * `(request, intent?) => Promise<Resource>`. `actorOf` reads the signed-in user from the face's request; `idOf`
 * reads the path's id (null for one of the wrong shape: it names nothing, so it is a 404 without a query);
 * `membership` reads a team member's role and the team's reports version.
 */
export function resourceAccess<Request extends object>(
  actorOf: (request: Request) => Actor,
  membership: Membership,
) {
  const workspaces = new WeakMap<Request, Promise<Workspace>>();
  const writes = new WeakMap<Request, Workspace>();
  const workspace = async (request: Request, intent: Intent = "read"): Promise<Workspace> => {
    let resolved = workspaces.get(request);
    if (!resolved) {
      resolved = resolveWorkspace(actorOf(request), membership);
      workspaces.set(request, resolved);
    }
    const allowed = authorise(await resolved, intent);
    if (intent === "write") writes.set(request, allowed);
    return allowed;
  };
  /** The workspace the request was allowed to change (asked with "write"), if any: what the activity records. */
  const written = (request: Request): Workspace | undefined => writes.get(request);
  const resource =
    <Resource, Id>(idOf: (request: Request) => Id | null, load: ResourceLoader<Resource, Id>) =>
    async (request: Request, intent: Intent = "read"): Promise<Resource> => {
      const scope = await workspace(request, intent);
      const id = idOf(request);
      return found(id === null ? undefined : await load(scope, id));
    };
  return { workspace, written, resource };
}

/**
 * A team's activity entry for a change the API or the web made (`changeOf("PATCH", "/api/v1/reports/:id")` is
 * `report.updated`): the resource the route names and what happened to it (created, updated, deleted, or the
 * route's last word for an action such as `crawl.cancel`).
 */
export function changeOf(method: string, route: string): string {
  const words = route.split("/").filter((word) => word !== "" && word !== "api" && word !== "v1");
  const named = words.filter((word) => !word.startsWith(":"));
  const resource = (named[0] === "account" ? named[1] : named[0]) ?? "workspace";
  const noun = resource.endsWith("s") ? resource.slice(0, -1) : resource;
  const last = words.at(-1) ?? "";
  const acting = method === "POST" && last !== resource && !last.startsWith(":");
  if (acting) return `${noun}.${last}`;
  const verb = { POST: "created", PUT: "updated", PATCH: "updated", DELETE: "deleted" }[method] ?? "changed";
  return `${noun}.${verb}`;
}

/** One face's access: its workspace lookup and its resource accessors' factory. */
export type ResourceAccess<Request extends object> = ReturnType<typeof resourceAccess<Request>>;

/** The lookups of one resource each, by id (or a project by name) within a workspace, and team memberships. */
interface Lookups<Crawl, Report, Webhook, Project> {
  crawls: { show(workspace: Workspace, id: number): Promise<Crawl | undefined> };
  reports: { show(workspace: Workspace, id: number): Promise<Report | undefined> };
  webhooks: { show(workspace: Workspace, id: number): Promise<Webhook | undefined> };
  projects: { show(workspace: Workspace, project: string): Promise<Project | undefined> };
  teams: { roleAndVersion: Membership };
}

/**
 * The resources a face's paths name, one accessor each: `crawl`, `report`, `webhook` by the path's id, `project`
 * by its name, and `workspace`. A new resource gets one line here and one lookup in `Lookups`.
 */
export function workspaceResources<Request extends object, Crawl, Report, Webhook, Project>(
  path: {
    actorOf: (request: Request) => Actor;
    idOf: (request: Request) => number | null;
    projectOf: (request: Request) => string;
  },
  services: Lookups<Crawl, Report, Webhook, Project>,
) {
  const { workspace, written, resource } = resourceAccess(path.actorOf, (userId, teamId) =>
    services.teams.roleAndVersion(userId, teamId),
  );
  return {
    workspace,
    written,
    crawl: resource(path.idOf, (scope, id) => services.crawls.show(scope, id)),
    report: resource(path.idOf, (scope, id) => services.reports.show(scope, id)),
    webhook: resource(path.idOf, (scope, id) => services.webhooks.show(scope, id)),
    project: resource(path.projectOf, (scope, name) => services.projects.show(scope, name)),
  };
}
