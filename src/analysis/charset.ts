/**
 * Decides how the document's bytes become text, as a browser does: a byte-order mark, else the charset of
 * Content-Type, else a <meta> declaration in the first 1,024 bytes; undeclared documents are read as UTF-8 when
 * they are valid UTF-8 and as windows-1252 otherwise.
 */
import { isUtf8 } from "node:buffer";
import { TextDecoder } from "node:util";
import type { CharsetFacts } from "./snapshot.js";

export interface DecodedDocument {
  html: string;
  charset: CharsetFacts;
}

const metaCharset = /<meta[^>]*?charset\s*=\s*["']?\s*([\w.:-]+)/i;

export function decodeDocument(body: Buffer, contentType: string | undefined): DecodedDocument {
  const bom = sniffByteOrderMark(body);
  if (bom) return decodeAs(body, bom, { declaredIn: "byte-order-mark", declaredLabel: bom });

  const headerLabel = contentType?.match(/;\s*charset\s*=\s*["']?([^"';\s]+)/i)?.[1];
  if (headerLabel)
    return decodeAs(body, headerLabel, { declaredIn: "content-type", declaredLabel: headerLabel });

  const metaLabel = body.subarray(0, 1024).toString("latin1").match(metaCharset)?.[1];
  if (metaLabel) return decodeAs(body, metaLabel, { declaredIn: "meta", declaredLabel: metaLabel });

  if (isUtf8(body))
    return {
      html: body.toString("utf8"),
      charset: { encoding: "utf-8", declaredIn: null, declaredLabel: null },
    };
  return decodeAs(body, "windows-1252", { declaredIn: null, declaredLabel: null });
}

function decodeAs(body: Buffer, label: string, declared: Omit<CharsetFacts, "encoding">): DecodedDocument {
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(label);
  } catch {
    decoder = new TextDecoder("utf-8"); // an unknown label: browsers fall back, and so do we
  }
  // A meta that claims UTF-16 in an ASCII-compatible document means UTF-8 (HTML's encoding sniffing rules).
  if (declared.declaredIn === "meta" && decoder.encoding.startsWith("utf-16"))
    decoder = new TextDecoder("utf-8");
  // Buffer's own UTF-8 decoder is several times faster than TextDecoder's; both replace invalid bytes.
  const html = decoder.encoding === "utf-8" ? stripBom(body.toString("utf8")) : decoder.decode(body);
  return { html, charset: { encoding: decoder.encoding, ...declared } };
}

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function sniffByteOrderMark(body: Buffer): string | null {
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return "utf-8";
  if (body[0] === 0xfe && body[1] === 0xff) return "utf-16be";
  if (body[0] === 0xff && body[1] === 0xfe) return "utf-16le";
  return null;
}
