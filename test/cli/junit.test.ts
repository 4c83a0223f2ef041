import { describe, expect, it } from "vitest";
import { attribute, text } from "../../src/cli/gate/junit.js";
import { parseXml } from "../helpers/xml.js";

describe("JUnit XML escaping", () => {
  const hostile = "a <b> & \"c\" 'd' ]]> \u0000\u0007\u001b[31m \ud800 \ufffe\ttab\nline\r\n😀";

  it("round-trips page text through element text and attributes as well-formed XML", () => {
    const root = parseXml(`<t a="${attribute(hostile)}">${text(hostile)}</t>`);
    const expected = "a <b> & \"c\" 'd' ]]> \ufffd\ufffd\ufffd[31m \ufffd \ufffd\ttab\nline\r\n😀";
    expect(root.attributes.a).toBe(expected);
    expect(root.text).toBe(expected);
  });

  it("is checked by a reader that rejects what is not well-formed", () => {
    expect(() => parseXml("<t>a & b</t>")).toThrow("a stray &");
    expect(() => parseXml("<t>a < b</t>")).toThrow("not well-formed");
    expect(() => parseXml('<t a="<">x</t>')).toThrow("not well-formed");
    expect(() => parseXml("<t><u></t></u>")).toThrow("</t> closes <u>");
    expect(() => parseXml("<t>\u0007</t>")).toThrow("a character XML 1.0 cannot carry");
    expect(() => parseXml("<t>")).toThrow("<t> is not closed");
  });
});
