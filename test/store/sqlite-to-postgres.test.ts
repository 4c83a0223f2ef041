/**
 * The parts of the SQLite → PostgreSQL copy that need no database: values converted to the target column's type,
 * and the tables ordered parents first. The copy itself is proven end to end in test/cli/move-to-postgres.test.ts
 * and test/cli/migrate-command.test.ts.
 */
import { describe, expect, it } from "vitest";
import { parentsFirst, toPostgres } from "../../src/store/sqlite-to-postgres.js";

describe("the SQLite to PostgreSQL copy", () => {
  it("converts values to the target column's type", () => {
    const bytes = Buffer.from([0, 1, 254, 255]);
    expect(toPostgres(bytes, "bytea")).toBe(bytes);
    expect(toPostgres("kept as text in a blob column", "bytea")).toEqual(
      Buffer.from("kept as text in a blob column"),
    );
    expect(toPostgres(2n ** 60n + 1n, "bigint")).toBe("1152921504606846977");
    expect(toPostgres(1n, "boolean")).toBe(true);
    expect(toPostgres(0n, "boolean")).toBe(false);
    expect(toPostgres(Buffer.from("text"), "text")).toBe("text");
    expect(toPostgres('{"a":1}', "jsonb")).toBe('{"a":1}');
    expect(toPostgres("2026-11-20T10:15:30.000000Z", "text")).toBe("2026-11-20T10:15:30.000000Z");
    expect(toPostgres(null, "bytea")).toBeNull();
  });

  it("orders tables so that every table follows the tables it references", () => {
    const keys: [string, string][] = [
      ["api_keys", "users"],
      ["analyses", "reports"],
      ["analyses", "users"],
      ["reports", "users"],
      ["crawl_page_inlinks", "crawl_pages"],
    ];
    expect(
      parentsFirst(["analyses", "api_keys", "crawl_page_inlinks", "crawl_pages", "reports", "users"], keys),
    ).toEqual(["crawl_pages", "users", "api_keys", "crawl_page_inlinks", "reports", "analyses"]);
    expect(() =>
      parentsFirst(
        ["a", "b"],
        [
          ["a", "b"],
          ["b", "a"],
        ],
      ),
    ).toThrow("cycle");
  });
});
