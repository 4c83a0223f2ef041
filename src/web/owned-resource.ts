/**
 * The signed-in user's resource named by the path's id (a report, a crawl, a webhook), for the pages that manage
 * it: an id of the wrong shape, a resource that does not exist and another user's resource all get the same
 * 404 page, so a page never tells whether someone else's resource exists.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import { pathId } from "./path-id.js";
import { notFoundPage } from "./render.js";
import { signedInSession } from "./signed-in.js";

/** Looks the resource up with `find(userId, id)`; null once the 404 page has been sent. */
export async function findOwned<Resource>(
  request: FastifyRequest<{ Params: { id: string } }>,
  reply: FastifyReply,
  find: (userId: number, id: number) => Promise<Resource | undefined>,
): Promise<Resource | null> {
  const id = pathId(request.params.id);
  const found = id === null ? undefined : await find(signedInSession(request).account.id, id);
  if (found === undefined) {
    await notFoundPage(request, reply);
    return null;
  }
  return found;
}
