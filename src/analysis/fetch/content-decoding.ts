/**
 * Undoes Content-Encoding (gzip, deflate, br, and zstd where the runtime has it) with a hard cap on the
 * decoded size, so a small compressed "bomb" cannot grow past the limit in memory.
 */
import { promisify } from "node:util";
import zlib from "node:zlib";
import { FetchFailure, failures } from "./fetch-failure.js";

type Decoder = (input: Buffer, maxOutputLength: number) => Promise<Buffer>;

const gunzip = promisify(zlib.gunzip) as (b: Buffer, o: zlib.ZlibOptions) => Promise<Buffer>;
const inflate = promisify(zlib.inflate) as (b: Buffer, o: zlib.ZlibOptions) => Promise<Buffer>;
const inflateRaw = promisify(zlib.inflateRaw) as (b: Buffer, o: zlib.ZlibOptions) => Promise<Buffer>;
const brotli = promisify(zlib.brotliDecompress) as (b: Buffer, o: zlib.BrotliOptions) => Promise<Buffer>;
const zstdDecompress = (zlib as unknown as Record<string, unknown>).zstdDecompress as
  | ((b: Buffer, o: { maxOutputLength: number }, cb: (e: Error | null, r: Buffer) => void) => void)
  | undefined;

// Browsers accept truncated streams, so flush what was decoded instead of failing at a missing trailer.
const lenientZlib = { finishFlush: zlib.constants.Z_SYNC_FLUSH };

const decoders: Record<string, Decoder> = {
  gzip: (input, max) => gunzip(input, { ...lenientZlib, maxOutputLength: max }),
  "x-gzip": (input, max) => gunzip(input, { ...lenientZlib, maxOutputLength: max }),
  // "deflate" is meant to be zlib-wrapped, but some servers send raw deflate; the first byte tells.
  deflate: (input, max) => {
    const options = { ...lenientZlib, maxOutputLength: max };
    return ((input[0] ?? 0) & 0x0f) === 8 ? inflate(input, options) : inflateRaw(input, options);
  },
  br: (input, max) =>
    brotli(input, { finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH, maxOutputLength: max }),
  ...(zstdDecompress
    ? { zstd: promisify(zstdDecompress) as unknown as Decoder }
    : ({} as Record<string, Decoder>)),
};

/** Whether this runtime's zlib has zstd (Node.js 22.15 and later): only then is zstd asked for and decoded. */
export const zstdSupported = zstdDecompress !== undefined;

/** The encodings this runtime can undo, for the Accept-Encoding request header. */
export const acceptedEncodings = ["gzip", "deflate", "br", ...(zstdSupported ? ["zstd"] : [])].join(", ");

/** Lists the codings of a Content-Encoding header in the order they were applied, ignoring identity. */
export function parseContentEncoding(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .split(",")
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== "" && coding !== "identity");
}

/** Decodes the body; throws FetchFailure "too-large" past maxBytes, "invalid-response" when undecodable. */
export async function decodeContent(
  raw: Buffer,
  codings: readonly string[],
  maxBytes: number,
): Promise<Buffer> {
  let body = raw;
  for (const coding of [...codings].reverse()) {
    const decode = decoders[coding];
    if (!decode) throw failures.invalidResponse();
    try {
      body = await decode(body, maxBytes + 1);
    } catch (error) {
      if (error instanceof RangeError || (error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") {
        throw failures.tooLarge(maxBytes);
      }
      throw error instanceof FetchFailure ? error : failures.invalidResponse();
    }
    if (body.length > maxBytes) throw failures.tooLarge(maxBytes);
  }
  return body;
}
