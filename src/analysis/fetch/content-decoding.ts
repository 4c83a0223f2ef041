/**
 * Undoes Content-Encoding (gzip, deflate, br, and zstd where the runtime has it) with a hard cap on the
 * decoded size, so a small compressed "bomb" cannot grow past the limit in memory. Decoding streams on libuv's
 * thread pool; each decoded chunk is copied into the body's memory as it comes (body-buffer.ts), so no turn of
 * the event loop gathers a whole decoded body at once.
 */
import type { Transform } from "node:stream";
import zlib from "node:zlib";
import { BodyBuffer } from "./body-buffer.js";
import { FetchFailure, failures } from "./fetch-failure.js";

type Decoder = (input: Buffer) => Transform;

const createZstdDecompress = (zlib as unknown as Record<string, unknown>).createZstdDecompress as
  | (() => Transform)
  | undefined;

// Browsers accept truncated streams, so flush what was decoded instead of failing at a missing trailer.
const lenientZlib = { finishFlush: zlib.constants.Z_SYNC_FLUSH };

const decoders: Record<string, Decoder> = {
  gzip: () => zlib.createGunzip(lenientZlib),
  "x-gzip": () => zlib.createGunzip(lenientZlib),
  // "deflate" is meant to be zlib-wrapped, but some servers send raw deflate; the first byte tells.
  deflate: (input) =>
    ((input[0] ?? 0) & 0x0f) === 8 ? zlib.createInflate(lenientZlib) : zlib.createInflateRaw(lenientZlib),
  br: () => zlib.createBrotliDecompress({ finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH }),
  ...(createZstdDecompress ? { zstd: () => createZstdDecompress() } : ({} as Record<string, Decoder>)),
};

/** Whether this runtime's zlib has zstd (Node.js 22.15 and later): only then is zstd asked for and decoded. */
export const zstdSupported = createZstdDecompress !== undefined;

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
    body = await decodeCapped(decode(body), body, maxBytes);
  }
  return body;
}

/** Runs `input` through `decoder`, gathering the output as it comes; stops past `maxBytes`. */
function decodeCapped(decoder: Transform, input: Buffer, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const gathered = new BodyBuffer(null, maxBytes);
    let settled = false;
    const fail = (failure: FetchFailure) => {
      if (settled) return;
      settled = true;
      decoder.destroy();
      reject(failure);
    };
    decoder.on("data", (chunk: Buffer) => {
      if (settled) return;
      if (gathered.size + chunk.length > maxBytes) return fail(failures.tooLarge(maxBytes));
      gathered.append(chunk);
    });
    decoder.on("error", (error) => fail(error instanceof FetchFailure ? error : failures.invalidResponse()));
    decoder.on("end", () => {
      if (settled) return;
      settled = true;
      resolve(gathered.take());
    });
    decoder.end(input);
  });
}
