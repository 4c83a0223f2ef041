/** Sends CSV as a download: the API's and the pages' exports of a crawl. */
import type { FastifyReply } from "fastify";

export function sendCsv(reply: FastifyReply, filename: string, body: string): FastifyReply {
  return reply
    .type("text/csv; charset=utf-8")
    .header("content-disposition", `attachment; filename="${filename}"`)
    .header("x-content-type-options", "nosniff")
    .send(body);
}
