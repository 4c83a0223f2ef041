/**
 * Where queries live (docs/ARCHITECTURE.md, "Layers"): Kysely query builders and `sql` templates appear only in
 * src/store/, in a service's own `*-store.ts` modules, in the embedded queue's adapter, which owns the
 * `jobs` tables, and in the database rate counters, which own `rate_limits`. Modules that still query elsewhere are listed with their reason; an entry that no longer
 * queries fails, so the list only shrinks.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const src = new URL("../../src/", import.meta.url).pathname;

const queryPattern =
  /\.(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto)\(|\bsql`|\bsql<[^>]*>`/;

const placesForQueries = (module: string) =>
  module.startsWith("store/") ||
  module.endsWith("-store.ts") ||
  module === "jobs/database-job-queue.ts" ||
  module === "jobs/fair-claim.ts" ||
  module === "limits/database-rate-counters.ts";

/** Modules that still write SQL outside the places for it, each to move into a store module. */
const allowed: Record<string, string> = {
  "app.ts": "/healthz asks the database for one row: a ping of the store's own",
};

function modules(directory = src): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return modules(path);
    return entry.name.endsWith(".ts") ? [relative(src, path)] : [];
  });
}

describe("where queries live", () => {
  const querying = modules().filter((module) => queryPattern.test(readFileSync(join(src, module), "utf8")));

  it("finds the queries it looks for", () => {
    expect(querying).toEqual(expect.arrayContaining(["store/report-store.ts", "jobs/database-job-queue.ts"]));
  });

  it("has SQL only in store/, *-store.ts modules and the embedded queue's adapter", () => {
    expect(querying.filter((module) => !placesForQueries(module) && !(module in allowed))).toEqual([]);
  });

  it("allows only modules that still query (the list only shrinks)", () => {
    expect(Object.keys(allowed).filter((module) => !querying.includes(module))).toEqual([]);
  });
});
