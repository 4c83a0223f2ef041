/**
 * Resource access in one place: the workspace a request acts in (computed once per request) and the loading of
 * the resource its path names within that workspace. A resource that is missing, or that belongs to another
 * workspace, throws ResourceNotFound (the same 404 for both, answered by error-handling.ts); a write by a member
 * who may only read throws AccessDenied (403). Handlers receive the resource and never check ownership.
 *
 * Today every workspace is the signed-in user's own, with every right. Teams (api-contract part 4) change
 * `resolveWorkspace` only: the actor's `team` selector names the workspace and the membership gives the role.
 * Framework-free, so the API and the web (which may not import each other) share it.
 */
import { AccessDenied, ResourceNotFound } from "../errors.js";

/** What a member may do: owners and editors write, viewers only read. */
export type Role = "owner" | "editor" | "viewer";

/** What the request does to the resource: reads are allowed to every member, writes to owners and editors. */
export type Intent = "read" | "write";

/** The signed-in user behind a request (an API key's owner or a web session's). */
export interface Actor {
  userId: number;
}

/** Where a request acts: whose resources it sees (`ownerId`, the key of the stores' owner columns) and its role. */
export interface Workspace {
  readonly ownerId: number;
  readonly role: Role;
}

/** The workspace an actor acts in. Today: the user's own, as its owner. */
export async function resolveWorkspace(actor: Actor): Promise<Workspace> {
  return { ownerId: actor.userId, role: "owner" };
}

/** Refuses a write by a member who may only read. */
export function authorise(workspace: Workspace, intent: Intent): Workspace {
  if (intent === "write" && workspace.role === "viewer") throw new AccessDenied();
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
 * reads the path's id (null for one of the wrong shape: it names nothing, so it is a 404 without a query).
 */
export function resourceAccess<Request extends object>(actorOf: (request: Request) => Actor) {
  const workspaces = new WeakMap<Request, Promise<Workspace>>();
  const workspace = async (request: Request, intent: Intent = "read"): Promise<Workspace> => {
    let resolved = workspaces.get(request);
    if (!resolved) {
      resolved = resolveWorkspace(actorOf(request));
      workspaces.set(request, resolved);
    }
    return authorise(await resolved, intent);
  };
  const resource =
    <Resource, Id>(idOf: (request: Request) => Id | null, load: ResourceLoader<Resource, Id>) =>
    async (request: Request, intent: Intent = "read"): Promise<Resource> => {
      const scope = await workspace(request, intent);
      const id = idOf(request);
      return found(id === null ? undefined : await load(scope, id));
    };
  return { workspace, resource };
}

/** One face's access: its workspace lookup and its resource accessors' factory. */
export type ResourceAccess<Request extends object> = ReturnType<typeof resourceAccess<Request>>;

/** The lookups of one resource each, by id (or a project by name) within an owner's resources. */
interface Lookups<Crawl, Report, Webhook, Project> {
  crawls: { show(ownerId: number, id: number): Promise<Crawl | undefined> };
  reports: { show(ownerId: number, id: number): Promise<Report | undefined> };
  webhooks: { show(ownerId: number, id: number): Promise<Webhook | undefined> };
  projects: { show(ownerId: number, project: string): Promise<Project | undefined> };
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
  const { workspace, resource } = resourceAccess(path.actorOf);
  return {
    workspace,
    crawl: resource(path.idOf, (scope, id) => services.crawls.show(scope.ownerId, id)),
    report: resource(path.idOf, (scope, id) => services.reports.show(scope.ownerId, id)),
    webhook: resource(path.idOf, (scope, id) => services.webhooks.show(scope.ownerId, id)),
    project: resource(path.projectOf, (scope, name) => services.projects.show(scope.ownerId, name)),
  };
}
