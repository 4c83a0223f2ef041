/**
 * A sitemap or sitemap index read as XML (sitemaps.org protocol): the `<loc>` of each `<url>` or `<sitemap>`
 * under the root, whatever prefix its namespace is bound to, with CDATA sections, character references (`&#38;`)
 * and the predefined entities (`&amp;`) decoded. A gzip file is unpacked as it is read.
 *
 * The XML parser is saxes (npm `saxes`): a streaming, non-validating parser that resolves namespaces and
 * prefixes, reports CDATA, decodes character and entity references, ships its own types and is the fork of `sax`
 * that jsdom relies on, with stricter well-formedness and faster parsing. It expands no entity a document
 * declares (no DTD processing), so no entity-expansion bomb applies; its well-formedness errors are recovered
 * from (the `<loc>`s read so far and after stay), but only the first `maxErrors` of a file: the parser builds an
 * `Error` for each malformed token, which costs about 200 times what reading a byte does, so a file of 10 MiB of
 * `&;` or control bytes cost 25–81 s of CPU before this cap; it now ends the file at its 100th error, keeping the
 * locations read so far. Every state is a linear scan, so a `<loc>` followed by megabytes of spaces costs what
 * reading them does.
 *
 * Bounds: at most `maxBytes` of XML (after gunzip; what follows is ignored), at most `limit` locations, each at
 * most `maxLocChars` long (longer ones are no URL a crawl takes and are dropped), elements nested at most
 * `maxDepth` deep (the parser holds every open element and looks prefixes up through them all, so a file nesting
 * deeper stops being read at the element that does). The text is fed to the parser
 * in 64 KiB pieces, with the event loop free between them, so a 10 MiB sitemap never stalls the service.
 */
import { Readable } from "node:stream";
import { setImmediate as turn } from "node:timers/promises";
import { createGunzip } from "node:zlib";
import { SaxesParser } from "saxes";

export interface SitemapRead {
  /** Whether the file is a sitemap index (its locations are sitemaps) rather than a list of pages. */
  index: boolean;
  locations: string[];
}

/** The longest location kept: twice the protocol's 2,048-character limit. */
export const maxLocChars = 4096;
const pieceBytes = 64 * 1024;
/**
 * Well-formedness errors a file may have before it stops being read: a sitemap a real site serves has none or a
 * few (a bare `&` in a query string), a hostile one millions.
 */
export const maxErrors = 100;
/** Sitemaps nest four deep (urlset, url, image:image, image:loc); a file nesting deeper than this is cut off. */
const maxDepth = 32;

/** The locations a sitemap (or gzipped sitemap) lists, in file order. */
export async function readSitemap(body: Buffer, maxBytes: number, limit: number): Promise<SitemapRead> {
  const locations: string[] = [];
  let index = false;
  let depth = 0;
  let inEntry = false;
  let loc: string | null = null;
  const parser = new SaxesParser({ xmlns: true, position: false });
  let errors = 0;
  // Recover: a broken sitemap keeps the locations it has, up to its `maxErrors`th error.
  parser.on("error", () => {
    if (++errors >= maxErrors) throw new StopReading();
  });
  parser.on("opentagstart", () => {
    // The parser looks a prefix up through every open element: nesting no sitemap has ends the read here.
    if (depth >= maxDepth) throw new StopReading();
  });
  parser.on("opentag", (tag) => {
    depth++;
    if (depth === 1) index = tag.local === "sitemapindex";
    else if (depth === 2) inEntry = tag.local === (index ? "sitemap" : "url");
    else if (depth === 3 && inEntry && tag.local === "loc") loc = "";
  });
  const collect = (text: string) => {
    // One character past the limit is enough to know the location is too long.
    if (loc !== null && depth === 3 && loc.length <= maxLocChars)
      loc += text.slice(0, maxLocChars + 1 - loc.length);
  };
  parser.on("text", collect);
  parser.on("cdata", collect);
  parser.on("closetag", () => {
    if (depth === 3 && loc !== null) {
      const value = loc.trim();
      if (value !== "" && value.length <= maxLocChars && locations.length < limit) locations.push(value);
      loc = null;
    }
    if (depth === 2) inEntry = false;
    depth--;
  });
  for await (const piece of xmlPieces(body, maxBytes)) {
    try {
      parser.write(piece);
    } catch (error) {
      if (error instanceof StopReading) break;
      throw error;
    }
    if (locations.length >= limit) break;
    await turn();
  }
  return { index, locations };
}

/** Thrown out of the parser's handlers to end a file that nests too deep or has too many errors. */
class StopReading extends Error {}

/** The file's text in pieces of about 64 KiB, gunzipped when it is gzip, at most `maxBytes` of it. */
async function* xmlPieces(body: Buffer, maxBytes: number): AsyncGenerator<string> {
  const decoder = new TextDecoder("utf-8");
  const gzip = body[0] === 0x1f && body[1] === 0x8b;
  const source: AsyncIterable<Buffer> = gzip
    ? Readable.from([body]).pipe(createGunzip({ chunkSize: pieceBytes }))
    : pieces(body);
  let read = 0;
  try {
    for await (const chunk of source) {
      const kept = chunk.subarray(0, maxBytes - read);
      read += kept.length;
      yield decoder.decode(kept, { stream: true });
      if (read >= maxBytes) return;
    }
  } catch {
    return; // a broken gzip stream ends the file where it breaks
  } finally {
    if (source instanceof Readable) source.destroy();
  }
}

async function* pieces(body: Buffer): AsyncGenerator<Buffer> {
  for (let start = 0; start < body.length; start += pieceBytes)
    yield body.subarray(start, start + pieceBytes);
}
