/**
 * The small pieces behind issue 39's pages: URLs typed without a scheme, tables that stack on a phone (each cell
 * labelled by its column), the refusal of a private address naming the operator's setting, and a chart's end
 * labels telling two points of one day apart.
 */
import { describe, expect, it } from "vitest";
import { AnalysisFailed } from "../../src/errors.js";
import { analysisFailureMessage } from "../../src/web/analysis-failure-message.js";
import { html } from "../../src/web/html.js";
import { typedUrl } from "../../src/web/typed-url.js";
import { endLabels } from "../../src/web/views/history.js";
import { stacked } from "../../src/web/views/stacked-table.js";

describe("a URL typed into a form", () => {
  it("reads a scheme-less address as https and leaves the rest alone", () => {
    expect(typedUrl("example.com")).toBe("https://example.com");
    expect(typedUrl("  example.com/page?q=1 ")).toBe("https://example.com/page?q=1");
    expect(typedUrl("//example.com/")).toBe("https://example.com/");
    expect(typedUrl("http://example.com/")).toBe("http://example.com/");
    expect(typedUrl("ftp://example.com/")).toBe("ftp://example.com/");
    expect(typedUrl("")).toBe("");
  });
});

describe("a stacked table", () => {
  it("labels every body cell with its column's heading and stays in a box of its own", () => {
    const table = stacked(html`<table class="links">
    <thead><tr><th scope="col">From</th><th scope="col">To <span class="muted">(status)</span></th><th scope="col">Anchor "text"</th></tr></thead>
    <tbody>${["a", "b"].map((name) => html`<tr><td>${name}</td><td class="key">&lt;td&gt;</td><td></td></tr>`)}</tbody>
  </table>`).value;
    expect(table.startsWith('<div class="table-box"><table class="links stack">')).toBe(true);
    expect(table.match(/<td data-label="From">/g)).toHaveLength(2);
    expect(table.match(/<td data-label="To \(status\)" class="key">/g)).toHaveLength(2);
    expect(table).toContain('<td data-label="Anchor &#34;text&#34;">');
    expect(table).toContain("&lt;td&gt;");
  });
});

describe("a refused private address", () => {
  it("tells the signed-in user which setting lets the operator allow it", () => {
    const refusal = new AnalysisFailed({ reason: "private-address", message: "The address is private." });
    expect(analysisFailureMessage(refusal)).toContain("PAGEGRADE_ALLOWED_ADDRESSES");
    const timeout = new AnalysisFailed({ reason: "timeout", message: "Too slow." });
    expect(analysisFailureMessage(timeout)).toBe("Too slow.");
  });
});

describe("a chart's end labels", () => {
  const frame = { width: 640, height: 180, left: 36, right: 16 };
  const labels = (first: string, last: string) =>
    [...endLabels(first, last, frame).value.matchAll(/>([^<]+)<\/text>/g)].map((match) => match[1]);
  it("are days, or times when both points fall on one day, or seconds within one minute", () => {
    expect(labels("2026-11-01T10:00:00.000Z", "2026-11-28T09:00:00.000Z")).toEqual([
      "2026-11-01",
      "2026-11-28",
    ]);
    expect(labels("2026-11-28T08:15:00.000Z", "2026-11-28T09:40:00.000Z")).toEqual([
      "2026-11-28 08:15",
      "2026-11-28 09:40",
    ]);
    expect(labels("2026-11-28T09:40:01.000Z", "2026-11-28T09:40:07.000Z")).toEqual([
      "2026-11-28 09:40:01",
      "2026-11-28 09:40:07",
    ]);
  });
});
