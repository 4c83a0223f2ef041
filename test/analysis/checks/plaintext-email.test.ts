import { describe, expect, it } from "vitest";
import { plaintextEmail } from "../../../src/analysis/checks/plaintext-email.js";
import { doc, pageFrom, run } from "../../helpers/page.js";

describe("plaintext-email", () => {
  it("passes without addresses; asset names are not addresses", () => {
    expect(run(plaintextEmail, pageFrom(doc("<p>See logo@2x.png and icon@3x.webp</p>"))).status).toBe("pass");
  });
  it("warns on addresses in text and mailto links", () => {
    const result = run(
      plaintextEmail,
      pageFrom(
        doc('<p>Write to Sales@Example.com.</p><a href="mailto:help%40example.org?subject=hi">help</a>'),
      ),
    );
    expect(result.status).toBe("warn");
    expect(result.items).toEqual([
      { address: "sales@example.com", where: "text" },
      { address: "help@example.org", where: "mailto link" },
    ]);
  });
});
