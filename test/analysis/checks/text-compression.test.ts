import { describe, expect, it } from "vitest";
import { textCompression } from "../../../src/analysis/checks/text-compression.js";
import { doc, pageFrom, run } from "../../helpers/page.js";

const big = doc("<p>x</p>".repeat(400));

describe("text-compression", () => {
  it("passes brotli, zstd, gzip and deflate", () => {
    for (const coding of ["br", "zstd", "gzip", "deflate"]) {
      expect(run(textCompression, pageFrom(big, { response: { contentEncoding: [coding] } })).status).toBe(
        "pass",
      );
    }
  });
  it("fails an uncompressed document", () => {
    expect(run(textCompression, pageFrom(big)).status).toBe("fail");
  });
  it("does not apply under 1 KiB", () => {
    expect(run(textCompression, pageFrom(doc("<p>tiny</p>"))).status).toBe("na");
  });
});
