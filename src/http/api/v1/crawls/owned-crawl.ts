/**
 * The one lookup of the crawl named in an API path (`/crawls/{id}/…`) for the caller: the crawl when it is the
 * caller's, otherwise the 404 problem sent (another user's crawl answers exactly as a missing one) and undefined.
 * Every crawl route shares it, so their 404s cannot drift apart.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import type { CrawlService } from "../../../../crawls/crawl-service.js";
import type { CrawlRow } from "../../../../crawls/crawl-store.js";
import { problems, sendProblem } from "../../../problem.js";

export type OwnedCrawlLookup = (
  request: FastifyRequest<{ Params: { id: number } }>,
  reply: FastifyReply,
) => Promise<CrawlRow | undefined>;

export function ownedCrawlLookup(crawls: CrawlService): OwnedCrawlLookup {
  return async (request, reply) => {
    const crawl = await crawls.show(request.account.id, request.params.id);
    if (!crawl) await sendProblem(request, reply, problems.notFound());
    return crawl;
  };
}
