/**
 * The one error vocabulary (errors.ts, error-handling.ts): every domain error carries a stable code and status,
 * and error-handling.ts answers it once, a problem object under /api and a page elsewhere, so a handler only
 * throws. Also the access seam's rules (accounts/access.ts): a missing resource is a 404, a viewer's write a 403,
 * and the workspace is worked out once per request.
 */
import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import { authorise, changeOf, found, resolveWorkspace, resourceAccess } from "../../src/accounts/access.js";
import { CrawlNotComplete } from "../../src/crawls/crawl-diff.js";
import { CrawlFinished, CrawlLimitReached } from "../../src/crawls/crawl-service.js";
import { installErrorHandling } from "../../src/error-handling.js";
import {
  AccessDenied,
  CapacityExceeded,
  type DomainError,
  ResourceNotFound,
  UsageError,
  ValidationFailed,
} from "../../src/errors.js";

const pages = {
  notFound: (_request: unknown, reply: import("fastify").FastifyReply, status: number) =>
    reply.code(status).type("text/html").send("<h1>not found page</h1>"),
  error: (
    _request: unknown,
    reply: import("fastify").FastifyReply,
    page: { heading: string; message: string },
    status: number,
  ) => reply.code(status).type("text/html").send(`<h1>${page.heading}</h1><p>${page.message}</p>`),
};

async function appThrowing(error: Error) {
  const app = Fastify();
  installErrorHandling(app, 1024, pages);
  app.get("/api/v1/thing", async () => {
    throw error;
  });
  app.get("/thing", async () => {
    throw error;
  });
  return app;
}

describe("domain errors", () => {
  it("each has a stable code and an HTTP status", () => {
    const errors: DomainError[] = [
      new ResourceNotFound(),
      new AccessDenied(),
      ValidationFailed.of("url", "Give a URL."),
      new CapacityExceeded(5),
      new CrawlFinished("The crawl has already finished."),
      new CrawlNotComplete(),
      new CrawlLimitReached(3),
      new UsageError("wrong"),
    ];
    expect(errors.map((error) => [error.code, error.status])).toEqual([
      ["not_found", 404],
      ["forbidden", 403],
      ["validation_failed", 422],
      ["capacity_exceeded", 503],
      ["crawl_finished", 409],
      ["crawl_not_complete", 409],
      ["crawl_limit_reached", 429],
      ["usage", 400],
    ]);
  });

  it("answers the API with the problem the spec documents", async () => {
    const notFound = await (await appThrowing(new ResourceNotFound())).inject("/api/v1/thing");
    expect(notFound.statusCode).toBe(404);
    expect(notFound.json()).toMatchObject({ type: "/problems/not-found", detail: "Resource not found." });

    const conflict = await (await appThrowing(new CrawlNotComplete())).inject("/api/v1/thing");
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json()).toMatchObject({
      type: "/problems/conflict",
      detail: new CrawlNotComplete().message,
    });

    const denied = await (await appThrowing(new AccessDenied())).inject("/api/v1/thing");
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toMatchObject({
      type: "/problems/forbidden",
      title: "Forbidden",
      role_needed: "editor",
    });
    const ownersOnly = await (await appThrowing(new AccessDenied("owner"))).inject("/api/v1/thing");
    expect(ownersOnly.json()).toMatchObject({
      type: "/problems/forbidden",
      role_needed: "owner",
      detail: "This needs the owner role in the team.",
    });

    const limit = await (await appThrowing(new CrawlLimitReached(2))).inject("/api/v1/thing");
    expect(limit.statusCode).toBe(429);
    expect(limit.json()).toMatchObject({
      type: "/problems/too-many-requests",
      limit: { name: "crawls", max: 2 },
    });
  });

  it("answers the web with a page, the same not-found page as an unknown path", async () => {
    const notFound = await (await appThrowing(new ResourceNotFound())).inject("/thing");
    expect(notFound.statusCode).toBe(404);
    expect(notFound.body).toBe("<h1>not found page</h1>");

    const conflict = await (await appThrowing(new CrawlFinished("The crawl had already finished."))).inject(
      "/thing",
    );
    expect(conflict.statusCode).toBe(409);
    expect(conflict.body).toContain("The crawl had already finished.");
  });
});

describe("resource access", () => {
  it("throws ResourceNotFound for nothing found, and returns what was found", () => {
    for (const nothing of [undefined, null, false, 0] as const)
      expect(() => found(nothing)).toThrow(ResourceNotFound);
    expect(found({ id: 1 })).toEqual({ id: 1 });
  });

  it("lets every member read and refuses a viewer's write with 403", () => {
    const viewer = { userId: 1, teamId: 3, role: "viewer" as const };
    expect(authorise(viewer, "read")).toBe(viewer);
    expect(() => authorise(viewer, "write")).toThrow(new AccessDenied("editor"));
    expect(authorise({ userId: 1, teamId: 3, role: "editor" }, "write").teamId).toBe(3);
  });

  it("names a write's change for the team's activity", () => {
    expect(changeOf("POST", "/api/v1/reports")).toBe("report.created");
    expect(changeOf("PATCH", "/api/v1/reports/:id")).toBe("report.updated");
    expect(changeOf("DELETE", "/api/v1/projects/:project")).toBe("project.deleted");
    expect(changeOf("POST", "/api/v1/crawls/:id/cancel")).toBe("crawl.cancel");
    expect(changeOf("POST", "/account/webhooks/:id/ping")).toBe("webhook.ping");
  });

  it("selects the user's own workspace, or a team's with the member's role asked afresh each time", async () => {
    const roles = new Map([["1:3", "viewer" as const]]);
    let asked = 0;
    const membership = async (userId: number, teamId: number) => {
      asked += 1;
      const role = roles.get(`${userId}:${teamId}`);
      return role ? { role, reportsVersion: 5 } : null;
    };
    expect(await resolveWorkspace({ userId: 1 }, membership)).toEqual({
      userId: 1,
      teamId: null,
      role: "owner",
    });
    expect(await resolveWorkspace({ userId: 1, team: "3" }, membership)).toEqual({
      userId: 1,
      teamId: 3,
      role: "viewer",
      reportsVersion: 5,
    });
    roles.delete("1:3");
    await expect(resolveWorkspace({ userId: 1, team: "3" }, membership)).rejects.toThrow(ResourceNotFound);
    for (const selector of ["", "0", "x", "3.5", ["3", "3"], "9".repeat(20)]) {
      await expect(resolveWorkspace({ userId: 1, team: selector }, membership)).rejects.toThrow(
        ResourceNotFound,
      );
    }
    expect(asked).toBe(2);
  });

  it("loads a resource within the actor's own workspace, once per request for the workspace", async () => {
    let actorReads = 0;
    const access = resourceAccess(
      (request: { userId: number; id: number | null }) => {
        actorReads += 1;
        return { userId: request.userId };
      },
      async () => null,
    );
    const rows = new Map([[7, { id: 7, owner: 1 }]]);
    const crawl = access.resource(
      (request: { id: number | null }) => request.id,
      async (workspace, id) => {
        const row = rows.get(id);
        return row?.owner === workspace.userId && workspace.teamId === null ? row : undefined;
      },
    );
    const request = { userId: 1, id: 7 };
    expect(await crawl(request)).toEqual({ id: 7, owner: 1 });
    expect(await crawl(request, "write")).toEqual({ id: 7, owner: 1 });
    expect(actorReads).toBe(1);
    await expect(crawl({ userId: 2, id: 7 })).rejects.toThrow(ResourceNotFound);
    await expect(crawl({ userId: 1, id: null })).rejects.toThrow(ResourceNotFound);
  });
});
