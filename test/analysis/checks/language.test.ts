import { describe, expect, it } from "vitest";
import { language } from "../../../src/analysis/checks/language.js";
import { pageFrom, run } from "../../helpers/page.js";

const withLang = (lang: string | null) =>
  run(
    language,
    pageFrom(`<!doctype html><html${lang === null ? "" : ` lang="${lang}"`}><title>x</title></html>`),
  );

describe("language", () => {
  it("passes valid tags", () => {
    expect(withLang("en").status).toBe("pass");
    expect(withLang("pt-BR").status).toBe("pass");
    expect(withLang("zh-Hant-TW").status).toBe("pass");
  });
  it("fails when missing, empty or invalid", () => {
    expect(withLang(null).status).toBe("fail");
    expect(withLang("").status).toBe("fail");
    expect(withLang("english language").status).toBe("fail");
    expect(withLang("en_US").status).toBe("fail");
  });
});
