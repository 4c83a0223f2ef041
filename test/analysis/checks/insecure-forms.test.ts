import { describe, expect, it } from "vitest";
import { insecureForms } from "../../../src/analysis/checks/insecure-forms.js";
import { doc, pageFrom, run } from "../../helpers/page.js";

describe("insecure-forms", () => {
  it("passes forms that post over https", () => {
    expect(
      run(insecureForms, pageFrom(doc('<form action="/login" method="post"><input type="password"></form>')))
        .status,
    ).toBe("pass");
  });
  it("fails forms posting to http and password fields on http pages", () => {
    const http = run(insecureForms, pageFrom(doc('<form action="http://x.org/s"><input name="q"></form>')));
    expect(http.status).toBe("fail");
    expect(http.items?.[0]?.action).toBe("http://x.org/s");
    const password = run(
      insecureForms,
      pageFrom(doc('<input type="password">'), { url: "http://example.com/" }),
    );
    expect(password.status).toBe("fail");
    expect(password.message).toContain("password field");
  });
  it("does not apply without forms", () => {
    expect(run(insecureForms, pageFrom(doc(""))).status).toBe("na");
  });
});
