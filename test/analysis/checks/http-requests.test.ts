import { describe, expect, it } from "vitest";
import { httpRequests } from "../../../src/analysis/checks/http-requests.js";
import { doc, pageFrom, run } from "../../helpers/page.js";

const scripts = (count: number) =>
  Array.from({ length: count }, (_, i) => `<script src="/s${i}.js"></script>`).join("");

describe("http-requests", () => {
  it("counts distinct scripts, stylesheets, eager images, frames and media", () => {
    const html = doc(
      '<img src="/a.png"><img src="/a.png"><img src="/lazy.png" loading="lazy"><iframe src="/f"></iframe><iframe src="/g" loading="lazy"></iframe><video src="/v.mp4" poster="/p.jpg"></video><img src="data:image/png;base64,AA==">',
      '<link rel="stylesheet" href="/s.css"><script src="/a.js"></script><script>inline()</script>',
    );
    const result = run(httpRequests, pageFrom(html));
    expect(result.status).toBe("pass");
    expect(result.value).toEqual({ total: 6, scripts: 1, stylesheets: 1, images: 1, frames: 1, media: 2 });
  });
  it("warns above 50 and fails above 100", () => {
    expect(run(httpRequests, pageFrom(doc(scripts(51)))).status).toBe("warn");
    expect(run(httpRequests, pageFrom(doc(scripts(101)))).status).toBe("fail");
  });
});
