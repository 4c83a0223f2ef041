import { describe, expect, it } from "vitest";
import { imageDimensions } from "../../../src/analysis/checks/image-dimensions.js";
import { doc, pageFrom, run } from "../../helpers/page.js";

describe("image-dimensions", () => {
  it("passes images with width and height", () => {
    expect(run(imageDimensions, pageFrom(doc('<img src="/a.png" width="10" height="10">'))).status).toBe(
      "pass",
    );
  });
  it("warns and lists images missing either", () => {
    const result = run(
      imageDimensions,
      pageFrom(doc('<img src="/a.png" width="10"><img src="/b.png" width="1" height="1">')),
    );
    expect(result.status).toBe("warn");
    expect(result.items).toHaveLength(1);
  });
  it("does not apply without images", () => {
    expect(run(imageDimensions, pageFrom(doc(""))).status).toBe("na");
  });
});
