import { describe, expect, it } from "vitest";
import { llmsTxt } from "../../../src/analysis/checks/llms-txt.js";
import { doc, pageFrom, probeFailed, probeOk, run } from "../../helpers/page.js";

const withLlms = (probe: ReturnType<typeof probeOk>) =>
  run(llmsTxt, pageFrom(doc(""), { probes: { llmsTxt: probe } }));

describe("llms-txt", () => {
  it("passes a file with a title and a link", () => {
    expect(withLlms(probeOk(200, { text: "# Example\n\n- [Docs](https://example.com/docs)" })).status).toBe(
      "pass",
    );
  });
  it("warns on a malformed file", () => {
    expect(withLlms(probeOk(200, { text: "just words" })).status).toBe("warn");
  });
  it("is info when absent (also when an HTML page answers)", () => {
    expect(withLlms(probeOk(404)).status).toBe("info");
    expect(withLlms(probeOk(200, { mediaType: "text/html", text: "<html>" })).status).toBe("info");
  });
  it("cannot check when the probe failed", () => {
    expect(withLlms(probeFailed()).status).toBe("error");
  });
});
