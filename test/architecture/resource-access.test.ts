/**
 * The access seam's rule (docs/ARCHITECTURE.md, "Resource access and errors"): no handler of the API or the web
 * checks ownership by hand. A resource named by a path is loaded through the face's accessor
 * (http/api/v1/access.ts, web/web-access.ts, web/report-visit.ts), which throws ResourceNotFound; only
 * error-handling.ts turns that into the 404 problem or page. So in src/http and src/web (views aside) a handler
 * never sends a 404 itself, never returns early on a lookup that found nothing, and never hands the signed-in
 * user's id straight to a lookup or change of one resource (that goes through the request's workspace).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const src = new URL("../../src/", import.meta.url).pathname;

function handlerModules(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return entry.name === "views" ? [] : handlerModules(path);
    return entry.name.endsWith(".ts") ? [relative(src, path)] : [];
  });
}

const modules = [...handlerModules(join(src, "http")), ...handlerModules(join(src, "web"))];

/** Each rule: what it forbids, and the modules allowed to hold it (the seam's own definitions). */
const rules: Array<{ name: string; pattern: RegExp; allowedIn: string[] }> = [
  {
    name: "a 404 problem sent by a handler (throw ResourceNotFound or use the accessor)",
    pattern: /problems\.notFound\(/,
    allowedIn: [],
  },
  {
    name: "a 404 page sent by a handler (throw ResourceNotFound or use the accessor)",
    pattern: /notFoundPage\(/,
    allowedIn: ["web/render.ts", "web/error-pages.ts"],
  },
  {
    name: "an early return on a lookup that found nothing (`if (!found) return reply`)",
    pattern:
      /if \(!\(?(await )?[\w.]+(\([^)]*\))?\)?\)\s*(\{\s*)?return (reply|sendProblem|undefined|null)\b/,
    // A cache miss, not a resource: the cache's own lookup.
    allowedIn: ["http/response-cache.ts"],
  },
  {
    name: "a count of nothing answered by hand (`if (deleted === 0) return …`)",
    pattern: /=== 0\)\s*return (reply|sendProblem|notFoundPage)/,
    allowedIn: [],
  },
  {
    name: "the signed-in user's id handed straight to one resource's lookup or change (use the workspace)",
    pattern:
      /\.(show|update|delete|cancel|ping|screenshot|diff|deliveries)\((request\.account\.id|session\.account\.id|user\.id)\b/,
    allowedIn: [],
  },
];

describe("resource access", () => {
  it("finds the handler modules", () => {
    expect(modules).toContain("http/api/v1/crawls/routes.ts");
    expect(modules).toContain("web/crawl-routes.ts");
  });

  for (const rule of rules) {
    it(`has no ${rule.name}`, () => {
      const offenders = modules
        .filter((module) => !rule.allowedIn.includes(module))
        .flatMap((module) =>
          readFileSync(join(src, module), "utf8")
            .split("\n")
            .flatMap((line, index) =>
              rule.pattern.test(line) ? [`${module}:${index + 1}: ${line.trim()}`] : [],
            ),
        );
      expect(offenders).toEqual([]);
    });
  }

  it("catches each kind of hand-written check it names", () => {
    const samples = [
      "    if (!found) return reply;",
      "      if (!row) return sendProblem(request, reply, problems.notFound());",
      "    if (!(await webhooks.show(request.account.id, request.params.id))) {",
      "    if (deleted === 0) return notFoundPage(request, reply);",
      "    const project = await projects.show(user.id, request.params.project);",
    ];
    for (const sample of samples) {
      expect(
        rules.some((rule) => rule.pattern.test(sample)),
        sample,
      ).toBe(true);
    }
  });
});
