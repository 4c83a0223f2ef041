import { describe, expect, it } from "vitest";
import { decodeDocument } from "../../src/analysis/charset.js";

describe("decodeDocument", () => {
  it("prefers a byte-order mark, then Content-Type, then a meta in the first 1,024 bytes", () => {
    const bom = decodeDocument(Buffer.from("\ufeff<p>é</p>", "utf8"), "text/html; charset=iso-8859-1");
    expect(bom.charset.declaredIn).toBe("byte-order-mark");
    expect(bom.html).toBe("<p>é</p>");
    const header = decodeDocument(Buffer.from("<p>\xe9</p>", "latin1"), 'text/html; charset="ISO-8859-1"');
    expect(header.html).toBe("<p>é</p>");
    expect(header.charset).toEqual({
      encoding: "windows-1252",
      declaredIn: "content-type",
      declaredLabel: "ISO-8859-1",
    });
    const meta = decodeDocument(
      Buffer.from('<meta charset="windows-1251"><p>\xcf</p>', "latin1"),
      "text/html",
    );
    expect(meta.charset.declaredIn).toBe("meta");
    expect(meta.html).toContain("П");
  });
  it("ignores a meta past the first 1,024 bytes", () => {
    const late = decodeDocument(Buffer.from(`${" ".repeat(1100)}<meta charset="koi8-r">`), undefined);
    expect(late.charset.declaredIn).toBeNull();
  });
  it("reads undeclared documents as UTF-8 when valid, windows-1252 otherwise", () => {
    expect(decodeDocument(Buffer.from("<p>é</p>"), undefined).charset.encoding).toBe("utf-8");
    expect(decodeDocument(Buffer.from("<p>\xe9</p>", "latin1"), undefined).charset.encoding).toBe(
      "windows-1252",
    );
  });
  it("falls back to UTF-8 for an unknown label", () => {
    expect(decodeDocument(Buffer.from("<p>x</p>"), "text/html; charset=bogus-42").charset.encoding).toBe(
      "utf-8",
    );
  });
});
