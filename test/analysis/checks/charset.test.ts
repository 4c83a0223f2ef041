import { describe, expect, it } from "vitest";
import { charset } from "../../../src/analysis/checks/charset.js";
import { doc, pageFrom, run } from "../../helpers/page.js";

describe("charset", () => {
  it("passes declared UTF-8", () => {
    expect(run(charset, pageFrom(doc(""))).status).toBe("pass");
  });
  it("warns on another declared charset", () => {
    expect(
      run(
        charset,
        pageFrom(doc(""), {
          charset: { encoding: "windows-1252", declaredIn: "meta", declaredLabel: "iso-8859-1" },
        }),
      ).status,
    ).toBe("warn");
  });
  it("fails when nothing declares it", () => {
    expect(
      run(charset, pageFrom(doc(""), { charset: { declaredIn: null, declaredLabel: null } })).status,
    ).toBe("fail");
  });
});
