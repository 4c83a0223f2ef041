import { describe, expect, it } from "vitest";
import { renderBlockingScripts } from "../../../src/analysis/checks/render-blocking-scripts.js";
import { doc, pageFrom, run } from "../../helpers/page.js";

describe("render-blocking-scripts", () => {
  it("passes async, defer, module, inline, JSON and body scripts", () => {
    const head =
      '<script src="/a.js" async></script><script src="/b.js" defer></script><script src="/c.js" type="module"></script><script>inline()</script><script type="application/json" src="/d.json"></script>';
    expect(run(renderBlockingScripts, pageFrom(doc('<script src="/body.js"></script>', head))).status).toBe(
      "pass",
    );
  });
  it("warns and lists blocking scripts in head", () => {
    const result = run(
      renderBlockingScripts,
      pageFrom(doc("", '<script src="/a.js"></script><script src="/b.js" type="text/javascript"></script>')),
    );
    expect(result.status).toBe("warn");
    expect(result.items?.map((item) => item.src)).toEqual([
      "https://example.com/a.js",
      "https://example.com/b.js",
    ]);
  });
});
