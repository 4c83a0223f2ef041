/**
 * Reading the PDFs pagegrade makes, for tests: the text of each page through poppler's pdftotext (Debian's
 * poppler-utils, installed by .ci/run), and which embedded font draws a given character, read from the fonts'
 * ToUnicode maps by a small parser of the uncompressed object syntax Chromium writes.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inflateSync } from "node:zlib";

/** Bidirectional control marks pdftotext puts around right-to-left runs. */
const bidiMarks = /[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * Each page's text, compatibility-normalised (NFKC, see cmapCharacters), bidi marks removed and whitespace
 * collapsed to single spaces.
 */
export function pdfPages(pdf: Buffer): string[] {
  const dir = mkdtempSync(join(tmpdir(), "pagegrade-pdf-"));
  try {
    const file = join(dir, "report.pdf");
    writeFileSync(file, pdf);
    const text = execFileSync("pdftotext", ["-enc", "UTF-8", file, "-"], { encoding: "utf8" });
    const pages = text.split("\f");
    if (pages.at(-1)?.trim() === "") pages.pop();
    return pages.map((page) => page.normalize("NFKC").replace(bidiMarks, "").replace(/\s+/g, " ").trim());
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

interface PdfObject {
  dict: string;
  stream: Buffer | null;
}

function pdfObjects(pdf: Buffer): Map<number, PdfObject> {
  const source = pdf.toString("latin1");
  const objects = new Map<number, PdfObject>();
  for (const match of source.matchAll(/(\d+) 0 obj\s*([\s\S]*?)endobj/g)) {
    const body = match[2] ?? "";
    const streamAt = body.search(/stream\r?\n/);
    let stream: Buffer | null = null;
    let dict = body;
    if (streamAt >= 0) {
      dict = body.slice(0, streamAt);
      const start = streamAt + (body.slice(streamAt).match(/^stream\r?\n/)?.[0].length ?? 0);
      const length = Number(dict.match(/\/Length (\d+)/)?.[1] ?? -1);
      const raw = Buffer.from(
        body.slice(start, length >= 0 ? start + length : body.lastIndexOf("endstream")),
        "latin1",
      );
      stream = dict.includes("/FlateDecode") ? inflateSync(raw) : raw;
    }
    objects.set(Number(match[1]), { dict, stream });
  }
  return objects;
}

/**
 * The characters a ToUnicode CMap maps glyphs to, compatibility-normalised (NFKC): Chromium maps a shaped
 * Arabic glyph to its presentation form and some CJK ideographs to the Kangxi radical that shares their glyph.
 */
function cmapCharacters(cmap: string): Set<string> {
  const out = new Set<string>();
  const decode = (hex: string) => {
    const units: number[] = [];
    for (let index = 0; index + 4 <= hex.length; index += 4)
      units.push(Number.parseInt(hex.slice(index, index + 4), 16));
    return String.fromCharCode(...units);
  };
  const add = (text: string) => {
    for (const character of text.normalize("NFKC")) out.add(character);
  };
  for (const block of cmap.matchAll(/beginbfchar([\s\S]*?)endbfchar/g))
    for (const pair of (block[1] ?? "").matchAll(/<[0-9A-Fa-f]+>\s*<([0-9A-Fa-f]+)>/g))
      add(decode(pair[1] ?? ""));
  for (const block of cmap.matchAll(/beginbfrange([\s\S]*?)endbfrange/g)) {
    for (const range of (block[1] ?? "").matchAll(
      /<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>\s*(<[0-9A-Fa-f]+>|\[[^\]]*\])/g,
    )) {
      const low = Number.parseInt(range[1] ?? "0", 16);
      const high = Number.parseInt(range[2] ?? "0", 16);
      const target = range[3] ?? "";
      if (target.startsWith("[")) {
        for (const item of target.matchAll(/<([0-9A-Fa-f]+)>/g)) add(decode(item[1] ?? ""));
      } else {
        const first = decode(target.slice(1, -1));
        const base = first.charCodeAt(first.length - 1);
        for (let offset = 0; offset <= high - low; offset++)
          add(first.slice(0, -1) + String.fromCharCode(base + offset));
      }
    }
  }
  return out;
}

/** The names of the embedded fonts whose glyphs draw the character (subset prefixes removed). */
export function fontsDrawing(pdf: Buffer, character: string): string[] {
  const objects = pdfObjects(pdf);
  const names = new Set<string>();
  for (const object of objects.values()) {
    if (!/\/Type\s*\/Font\b/.test(object.dict)) continue;
    const toUnicode = object.dict.match(/\/ToUnicode (\d+) 0 R/)?.[1];
    if (!toUnicode) continue;
    const cmap = objects.get(Number(toUnicode))?.stream?.toString("latin1") ?? "";
    if (!cmapCharacters(cmap).has(character)) continue;
    const descriptor = object.dict.match(/\/FontDescriptor (\d+) 0 R/)?.[1];
    const name =
      object.dict.match(/\/BaseFont\s*\/([^\s/<>[\]]+)/)?.[1] ??
      (descriptor
        ? objects.get(Number(descriptor))?.dict.match(/\/FontName\s*\/([^\s/<>[\]]+)/)?.[1]
        : undefined) ??
      "(unnamed)";
    names.add(name.replace(/^[A-Z]{6}\+/, ""));
  }
  return [...names];
}
