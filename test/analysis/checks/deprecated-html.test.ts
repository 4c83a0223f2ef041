import { describe, expect, it } from "vitest";
import { deprecatedHtml } from "../../../src/analysis/checks/deprecated-html.js";
import { doc, pageFrom, run } from "../../helpers/page.js";

describe("deprecated-html", () => {
  it("passes valid HTML, including <s> and <u>", () => {
    expect(run(deprecatedHtml, pageFrom(doc("<s>old price</s><u>note</u>"))).status).toBe("pass");
  });
  it("fails and lists obsolete elements", () => {
    const result = run(
      deprecatedHtml,
      pageFrom(doc('<center><font color="red">x</font></center><marquee>y</marquee>')),
    );
    expect(result.status).toBe("fail");
    expect(result.items?.map((item) => item.tag)).toEqual(["center", "font", "marquee"]);
  });
});
