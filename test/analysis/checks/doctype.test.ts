import { describe, expect, it } from "vitest";
import { doctype } from "../../../src/analysis/checks/doctype.js";
import { pageFrom, run } from "../../helpers/page.js";

describe("doctype", () => {
  it("passes the HTML doctype", () => {
    expect(run(doctype, pageFrom("<!DOCTYPE html><title>x</title>")).status).toBe("pass");
  });
  it("warns on almost-standards doctypes", () => {
    const transitional =
      '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd"><title>x</title>';
    expect(run(doctype, pageFrom(transitional)).status).toBe("warn");
  });
  it("fails without a doctype or with a quirks one", () => {
    expect(run(doctype, pageFrom("<title>x</title>")).status).toBe("fail");
    expect(
      run(doctype, pageFrom('<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 3.2 Final//EN"><title>x</title>'))
        .status,
    ).toBe("fail");
  });
});
