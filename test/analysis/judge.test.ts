import { describe, expect, it } from "vitest";
import type { CheckDefinition } from "../../src/analysis/checks/check.js";
import { judge } from "../../src/analysis/judge.js";
import { defaultScoring } from "../../src/analysis/scoring-config.js";
import { doc, pageFrom } from "../helpers/page.js";

const definition = (id: string, run: CheckDefinition["run"]): CheckDefinition => ({
  id,
  category: "seo",
  importance: "high",
  title: id,
  description: "",
  howToFix: "",
  run,
});

describe("judge", () => {
  const page = pageFrom(doc("<p>x</p>"));

  it("turns a check that throws into an error result for that check alone", () => {
    const results = judge(
      page,
      [
        definition("broken", () => {
          throw new Error("boom");
        }),
        definition("fine", () => ({ status: "pass", value: 1, message: "Fine." })),
      ],
      defaultScoring.thresholds,
    );
    expect(results.broken).toEqual({
      category: "seo",
      importance: "high",
      status: "error",
      passed: null,
      value: null,
      message: "This check could not be completed.",
    });
    expect(results.fine?.passed).toBe(true);
  });

  it("keeps 50 evidence items and counts the rest as truncated", () => {
    const items = Array.from({ length: 73 }, (_, index) => ({ index }));
    const results = judge(
      page,
      [definition("many", () => ({ status: "fail", value: 73, message: "Many.", items }))],
      defaultScoring.thresholds,
    );
    expect(results.many?.details?.items).toHaveLength(50);
    expect(results.many?.details?.truncated).toBe(23);
    expect(results.many?.passed).toBe(false);
  });
});
