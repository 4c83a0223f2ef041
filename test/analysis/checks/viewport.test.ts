import { describe, expect, it } from "vitest";
import { viewport } from "../../../src/analysis/checks/viewport.js";
import { doc, pageFrom, run } from "../../helpers/page.js";

const withViewport = (content: string) =>
  run(viewport, pageFrom(doc("", `<meta name="viewport" content="${content}">`)));

describe("viewport", () => {
  it("passes width=device-width", () => {
    expect(withViewport("width=device-width, initial-scale=1").status).toBe("pass");
  });
  it("warns when zoom is disabled", () => {
    expect(withViewport("width=device-width, user-scalable=no").status).toBe("warn");
    expect(withViewport("width=device-width, maximum-scale=1").status).toBe("warn");
  });
  it("fails when missing or not device-width", () => {
    expect(run(viewport, pageFrom(doc(""))).status).toBe("fail");
    expect(withViewport("width=1024").status).toBe("fail");
  });
});
