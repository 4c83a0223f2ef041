import { describe, expect, it } from "vitest";
import { inlineCss } from "../../../src/analysis/checks/inline-css.js";
import { doc, pageFrom, run } from "../../helpers/page.js";

const styled = (count: number) => '<p style="color:red">x</p>'.repeat(count);

describe("inline-css", () => {
  it("passes up to 10 styled elements, not counting SVG", () => {
    expect(
      run(inlineCss, pageFrom(doc(`${styled(10)}<svg>${'<path style="fill:red"/>'.repeat(20)}</svg>`)))
        .status,
    ).toBe("pass");
  });
  it("warns above 10 with samples", () => {
    const result = run(inlineCss, pageFrom(doc(styled(11))));
    expect(result.status).toBe("warn");
    expect(result.items?.[0]).toEqual({ html: '<p style="color:red">' });
  });
});
