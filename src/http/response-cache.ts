/**
 * Finished API responses kept in memory, so a list or report asked for again is sent without a query, a
 * serialisation or a compression. An entry holds the bytes as sent (and their gzip, made on first demand) with
 * the reports version of its workspace when it was made; it is used only while that version is still the
 * workspace's current one. The version is bumped by the database itself on every change to the workspace's
 * reports or analyses (a user's: migration 010; a team's: migration 038), and read on every request (a user's with
 * the API key, a team's with the member's role), so an entry can never outlive a change, whichever instance made
 * it. Bounded by bytes (PAGEGRADE_RESPONSE_CACHE_MB, 64 by default; a body over an eighth of it is not kept), least
 * recently used dropped first.
 */
import { promisify } from "node:util";
import { gzip } from "node:zlib";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { WorkspaceScope } from "../store/owned-rows.js";

const gzipAsync = promisify(gzip);

export interface CachedResponse {
  version: number;
  body: Buffer;
  /** Response headers that belong to the body (content type, Link). */
  headers: Record<string, string>;
  /** The body gzip-compressed, once a client that accepts gzip asked for it. */
  gzip?: Promise<Buffer>;
}

export class ResponseCache {
  private readonly entries = new Map<string, CachedResponse>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  get enabled(): boolean {
    return this.maxBytes > 0;
  }

  /** The entry for `key` if it was made at `version`; a stale one is dropped. */
  get(key: string, version: number): CachedResponse | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.version !== version) {
      this.bytes -= entry.body.length;
      return undefined;
    }
    this.entries.set(key, entry);
    return entry;
  }

  set(key: string, entry: CachedResponse): void {
    if (!this.enabled || entry.body.length > this.maxBytes / 8) return;
    const previous = this.entries.get(key);
    if (previous) {
      this.entries.delete(key);
      this.bytes -= previous.body.length;
    }
    this.entries.set(key, entry);
    this.bytes += entry.body.length;
    for (const [oldestKey, oldest] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldestKey);
      this.bytes -= oldest.body.length;
    }
  }

  /** The entry's gzip, compressed once and shared by every request that wants it. */
  static gzipOf(entry: CachedResponse): Promise<Buffer> {
    entry.gzip ??= gzipAsync(entry.body, { level: 6 });
    return entry.gzip;
  }
}

/** Whether the request's Accept-Encoding admits gzip (RFC 9110: listed, or `*`, with a q above 0). */
export function acceptsGzip(request: FastifyRequest): boolean {
  const header = request.headers["accept-encoding"];
  if (typeof header !== "string") return false;
  for (const part of header.split(",")) {
    const [coding = "", ...parameters] = part.trim().toLowerCase().split(";");
    if (coding.trim() !== "gzip" && coding.trim() !== "*") continue;
    const q = parameters.map((p) => p.trim()).find((p) => p.startsWith("q="));
    return q === undefined || Number(q.slice(2)) > 0;
  }
  return false;
}

/** Bodies smaller than this go out as they are: compressing them saves less than it costs. */
const compressFrom = 1024;

/** Sends a cached (or just made) response, gzip-compressed when the client accepts it. */
export async function sendCached(
  request: FastifyRequest,
  reply: FastifyReply,
  entry: CachedResponse,
): Promise<FastifyReply> {
  reply.code(200).headers(entry.headers).header("vary", "accept-encoding");
  if (entry.body.length >= compressFrom && acceptsGzip(request)) {
    return reply.header("content-encoding", "gzip").send(await ResponseCache.gzipOf(entry));
  }
  return reply.send(entry.body);
}

/** A response the cache can keep: the body as sent and the headers that belong to it. */
export type CacheableResponse = Pick<CachedResponse, "body" | "headers">;

export const jsonHeaders = { "content-type": "application/json; charset=utf-8" };

/**
 * Answers a GET of a workspace's reports data from the cache when it can, else makes the response, keeps it
 * and sends it. `make` throws (ResourceNotFound: a 404, nothing kept) when the resource is not the workspace's.
 * The response must depend only on the workspace's reports and their history and on the request. The workspace
 * is resolved before (a removed member is refused before any entry is looked at: the membership is read afresh
 * on every request) and names the entry. A user's own workspace is kept under the user's reports version (read
 * with the API key); a team's under the team's (migration 038, read with the member's role), and shared by its
 * members, whose requests of one URL are answered alike.
 */
export async function respondCached(
  cache: ResponseCache,
  request: FastifyRequest,
  reply: FastifyReply,
  workspace: WorkspaceScope & { readonly reportsVersion?: number },
  make: () => Promise<CacheableResponse>,
): Promise<FastifyReply> {
  const team = workspace.teamId !== null;
  const version = team ? workspace.reportsVersion : request.reportsVersion;
  if (version === undefined) return sendCached(request, reply, { version: -1, ...(await make()) });
  const key = `${team ? `t${workspace.teamId}` : workspace.userId} ${request.protocol}://${request.host}${request.url}`;
  const cached = cache.get(key, version);
  if (cached) return sendCached(request, reply, cached);
  const made = await make();
  const entry = { version, ...made };
  cache.set(key, entry);
  return sendCached(request, reply, entry);
}
