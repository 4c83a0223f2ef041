/**
 * Sends CSV as a download: the API's and the pages' exports of a crawl. `sendCsvStream` sends chunks as they are
 * made (a stream pulled by the socket, so a slow client slows the reading of the database instead of filling
 * memory); an error after the first chunk can only end the connection, which the client sees as a cut download.
 */
import { Readable } from "node:stream";
import type { FastifyReply } from "fastify";

function asDownload(reply: FastifyReply, filename: string): FastifyReply {
  return reply
    .type("text/csv; charset=utf-8")
    .header("content-disposition", `attachment; filename="${filename}"`)
    .header("x-content-type-options", "nosniff");
}

export function sendCsv(reply: FastifyReply, filename: string, body: string): FastifyReply {
  return asDownload(reply, filename).send(body);
}

export function sendCsvStream(
  reply: FastifyReply,
  filename: string,
  chunks: AsyncIterable<string>,
): FastifyReply {
  return asDownload(reply, filename).send(Readable.from(chunks, { objectMode: false }));
}
