import { describe, expect, it } from "vitest";
import { metaRefresh } from "../../../src/analysis/checks/meta-refresh.js";
import { doc, pageFrom, run } from "../../helpers/page.js";

describe("meta-refresh", () => {
  it("passes without and fails with a meta refresh", () => {
    expect(run(metaRefresh, pageFrom(doc(""))).status).toBe("pass");
    const result = run(
      metaRefresh,
      pageFrom(doc("", '<meta http-equiv="Refresh" content="0; url=https://x.org/">')),
    );
    expect(result.status).toBe("fail");
    expect(result.value).toBe("0; url=https://x.org/");
  });
});
