/**
 * The web's pages for errors, handed by app.ts to the error handling at the top (error-handling.ts), which
 * picks a problem object for the API or one of these pages for everything else.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import { notFoundPage, sendHtml } from "./render.js";
import { errorBody } from "./views/site.js";

export const errorPages = {
  /** The page for a path that names nothing (or a malformed one, with its status). */
  notFound(request: FastifyRequest, reply: FastifyReply, status: number): FastifyReply {
    return notFoundPage(request, reply, status);
  },
  /** A page with a heading and a message, under `title`. */
  error(
    request: FastifyRequest,
    reply: FastifyReply,
    page: { title: string; heading: string; message: string },
    status: number,
  ): FastifyReply {
    return sendHtml(request, reply, page.title, errorBody(page.heading, page.message), status);
  },
};
