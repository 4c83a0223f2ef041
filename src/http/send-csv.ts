/**
 * Sends CSV as a download: the API's and the pages' exports of a crawl, as chunks made while the database is
 * read (a stream pulled by the socket, so a slow client slows the reading instead of filling memory). An error
 * after the first chunk can only end the connection, which the client sees as a cut download.
 */
import { Readable } from "node:stream";
import type { FastifyReply } from "fastify";

export function sendCsvStream(
  reply: FastifyReply,
  filename: string,
  chunks: AsyncIterable<string>,
): FastifyReply {
  return reply
    .type("text/csv; charset=utf-8")
    .header("content-disposition", `attachment; filename="${filename}"`)
    .header("x-content-type-options", "nosniff")
    .send(Readable.from(chunks, { objectMode: false }));
}
