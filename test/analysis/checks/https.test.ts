import { describe, expect, it } from "vitest";
import { https } from "../../../src/analysis/checks/https.js";
import { doc, pageFrom, run } from "../../helpers/page.js";

describe("https", () => {
  it("passes https and fails http", () => {
    expect(run(https, pageFrom(doc(""), { url: "https://example.com/" })).status).toBe("pass");
    expect(run(https, pageFrom(doc(""), { url: "http://example.com/" })).status).toBe("fail");
  });
});
