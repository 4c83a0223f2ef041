/**
 * The layer rule of docs/ARCHITECTURE.md ("Layers"), checked over every import of src/: static imports,
 * `export … from`, side-effect imports and dynamic `import()` (type-only ones too: a type couples as much as a
 * value). It fails on an import from a lower layer to a higher one, on an import between two faces, on an import
 * between services against their order, on a module no layer claims, on any import circle (naming its
 * modules) and on any circle of folders, even one no module circle makes (naming the imports that close it). Edges that still break the rule are listed in `allowed` below, one per edge with its reason; an
 * entry whose edge no longer exists fails too, so the list can only shrink.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { describe, expect, it } from "vitest";

const src = new URL("../../src/", import.meta.url).pathname;

/**
 * Services, top to bottom: a service may import the ones after it, never one before it. Notifications compare
 * crawls and send mail when one ends (told through events like the webhooks); crawls store reports
 * and announce through events; webhooks present reports and diffs for their payloads; reports announce through
 * events and read projects' rules; teams check addresses as accounts do and mail invitations; accounts send
 * mail (password reset); mail, events and branding use nobody.
 */
const serviceOrder = [
  "notifications/",
  "crawls/",
  "webhooks/",
  "reports/",
  "projects/",
  "teams/",
  "accounts/",
  "mail/",
  "events/",
  "branding/",
];

/** Top to bottom. A module may import its own layer's modules and any layer below. */
const layers: Array<{ name: string; holds: string[] }> = [
  {
    name: "composition",
    holds: [
      "main.ts",
      "worker.ts",
      "cli/main.ts",
      "cli/command-line.ts",
      "app.ts",
      "services.ts",
      "job-registry.ts",
      "error-handling.ts",
    ],
  },
  { name: "faces", holds: ["cli/", "http/", "web/"] },
  { name: "services", holds: serviceOrder },
  { name: "limits", holds: ["limits/"] },
  { name: "jobs", holds: ["jobs/"] },
  { name: "analysis", holds: ["analysis/"] },
  { name: "store", holds: ["store/"] },
  {
    name: "ground",
    holds: ["config.ts", "timestamps.ts", "errors.ts", "vocabulary.ts", "ip-range.ts", "runtime/"],
  },
];

/** Faces never import each other: what one gives another is handed over by composition. */
const faces = ["cli/", "http/", "web/"];

/** Edges that still break the rule, each to be removed by the change that fixes it. "from -> to", src-relative. */
const allowed: Record<string, string> = {
  "web/crawl-routes.ts -> http/send-csv.ts": "the CSV download is the API's; the web's crawl pages use it",
  // Circles.
};

/** Every module of src/ (TypeScript and the thread entry's .mjs). */
function modules(directory = src): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return modules(path);
    return /\.(ts|mjs)$/.test(entry.name) ? [relative(src, path)] : [];
  });
}

/** The text without comments; string contents stay (specifiers are strings), "//" inside them too. */
function withoutComments(text: string): string {
  let out = "";
  let index = 0;
  while (index < text.length) {
    const char = text[index] as string;
    const next = text[index + 1];
    if (char === "/" && next === "*") {
      const end = text.indexOf("*/", index + 2);
      index = end === -1 ? text.length : end + 2;
    } else if (char === "/" && next === "/") {
      const end = text.indexOf("\n", index);
      index = end === -1 ? text.length : end;
    } else if (char === '"' || char === "'" || char === "`") {
      let end = index + 1;
      while (end < text.length && text[end] !== char) end += text[end] === "\\" ? 2 : 1;
      out += text.slice(index, end + 1);
      index = end + 1;
    } else {
      out += char;
      index++;
    }
  }
  return out;
}

const specifierPatterns = [
  // import … from "x", export … from "x" (over several lines), import "x"
  /(?:^|[;\n}])\s*(?:import|export)\s+(?:type\s+)?(?:[^;"'`]*?\s+from\s+)?["']([^"']+)["']/g,
  // import("x"), typeof import("x")
  /\bimport\(\s*["']([^"']+)["']\s*\)/g,
];

/** The src-relative modules a module imports. */
function importsOf(module: string): string[] {
  const text = withoutComments(readFileSync(join(src, module), "utf8"));
  const found = new Set<string>();
  for (const pattern of specifierPatterns) {
    for (const match of text.matchAll(pattern)) {
      const specifier = match[1] as string;
      if (!specifier.startsWith(".")) continue;
      const target = normalize(join(dirname(module), specifier)).replace(/\.js$/, ".ts");
      found.add(target);
    }
  }
  return [...found];
}

const layerOf = (module: string) =>
  layers.findIndex((layer) =>
    layer.holds.some((held) => (held.endsWith("/") ? module.startsWith(held) : module === held)),
  );
const prefixIn = (module: string, prefixes: string[]) => prefixes.find((prefix) => module.startsWith(prefix));

function ruleBroken(from: string, to: string): string | null {
  const [fromLayer, toLayer] = [layerOf(from), layerOf(to)];
  if (toLayer < fromLayer) {
    return `${layers[fromLayer]?.name} imports ${layers[toLayer]?.name}, a layer above it`;
  }
  if (fromLayer !== toLayer) return null;
  const [fromFace, toFace] = [prefixIn(from, faces), prefixIn(to, faces)];
  if (layers[fromLayer]?.name === "faces" && fromFace !== toFace) {
    return `the face ${fromFace} imports the face ${toFace}`;
  }
  const [fromService, toService] = [prefixIn(from, serviceOrder), prefixIn(to, serviceOrder)];
  if (fromService && toService && serviceOrder.indexOf(toService) < serviceOrder.indexOf(fromService)) {
    return `the service ${fromService} imports ${toService}, which comes before it`;
  }
  return null;
}

/** Strongly connected components of more than one module, or a module importing itself (Tarjan). */
function circles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter);
    counter++;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) as number, low.get(next) as number));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node) as number, index.get(next) as number));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop() as string;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || graph.get(node)?.includes(node)) found.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

/** A module's folder, src-relative ("" for src/ itself). */
const folderOf = (module: string) => {
  const folder = dirname(module);
  return folder === "." ? "" : folder;
};

/** Whether one folder holds the other (or is it): a folder and its sub-folders may import each other. */
const nested = (a: string, b: string) =>
  a === "" || b === "" || a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`);

/**
 * Circles of folders: folders neither of which holds the other, each reaching the other through imports (as
 * `analysis/render/` and `analysis/checks/accessibility/` did when each had a module the other imported), each
 * named with the imports that close it.
 */
function folderCircles(edges: ReadonlyArray<{ from: string; to: string }>): string[] {
  const graph = new Map<string, string[]>();
  const crossing = edges.filter((edge) => !nested(folderOf(edge.from), folderOf(edge.to)));
  for (const edge of crossing) {
    const [from, to] = [folderOf(edge.from), folderOf(edge.to)];
    graph.set(to, graph.get(to) ?? []);
    const targets = graph.get(from) ?? [];
    if (!targets.includes(to)) targets.push(to);
    graph.set(from, targets);
  }
  return circles(graph).map((folders) => {
    const closing = crossing
      .filter((edge) => folders.includes(folderOf(edge.from)) && folders.includes(folderOf(edge.to)))
      .map((edge) => `${edge.from} -> ${edge.to}`)
      .sort();
    return `${folders.join(" ↔ ")} (${closing.join(", ")})`;
  });
}

describe("the import layers of src/", () => {
  const all = modules();
  const edges = all.flatMap((from) => importsOf(from).map((to) => ({ from, to, key: `${from} -> ${to}` })));

  it("finds the modules and their imports (static, re-exports and dynamic)", () => {
    const keys = new Set(edges.map((edge) => edge.key));
    expect(all.length).toBeGreaterThan(100);
    expect(keys).toContain("app.ts -> services.ts");
    expect(keys).toContain("http/api/v1/plugin.ts -> http/api/v1/reports/pdf-routes.ts"); // a type and a value
    expect(keys).toContain("cli/command-line.ts -> cli/analyze-command.ts"); // import()
    expect(keys).toContain("web/pdf/report-printer.ts -> web/pdf/pdf-renderer.ts"); // import() and a type
  });

  it("resolves every relative import to a module of src/, and every module to a layer", () => {
    const known = new Set(all);
    expect(edges.filter((edge) => !known.has(edge.to)).map((edge) => edge.key)).toEqual([]);
    expect(all.filter((module) => layerOf(module) === -1)).toEqual([]);
  });

  it("has no import from a lower layer to a higher one, between faces, or against the services' order", () => {
    const broken = edges
      .map((edge) => ({ key: edge.key, why: ruleBroken(edge.from, edge.to) }))
      .filter((edge) => edge.why !== null && !(edge.key in allowed))
      .map((edge) => `${edge.key}: ${edge.why}`);
    expect(broken).toEqual([]);
  });

  it("has no import circle", () => {
    const graph = new Map<string, string[]>(all.map((module) => [module, []]));
    for (const edge of edges) if (!(edge.key in allowed)) graph.get(edge.from)?.push(edge.to);
    expect(circles(graph).map((circle) => circle.join(" ↔ "))).toEqual([]);
  });

  it("has no circle of folders", () => {
    const kept = edges.filter((edge) => !(edge.key in allowed));
    expect(folderCircles(kept)).toEqual([]);
  });

  it("finds a circle of folders where no two modules import each other", () => {
    const edges = [
      { from: "analysis/render/render-page.ts", to: "analysis/checks/accessibility/axe-audit.ts" },
      { from: "analysis/checks/accessibility/axe-checks.ts", to: "analysis/render/rendered-page.ts" },
      { from: "analysis/render/render-page.ts", to: "analysis/media-type.ts" },
      { from: "analysis/checks/check.ts", to: "analysis/checks/accessibility/axe-checks.ts" },
    ];
    expect(folderCircles(edges)).toEqual([
      "analysis/checks/accessibility ↔ analysis/render (analysis/checks/accessibility/axe-checks.ts -> analysis/render/rendered-page.ts, analysis/render/render-page.ts -> analysis/checks/accessibility/axe-audit.ts)",
    ]);
  });

  it("allows only edges that still exist and still need it (the list only shrinks)", () => {
    const existing = new Map(edges.map((edge) => [edge.key, edge]));
    const graph = new Map<string, string[]>(all.map((module) => [module, []]));
    for (const edge of edges) if (!(edge.key in allowed)) graph.get(edge.from)?.push(edge.to);
    const inCircleWithout = (from: string, to: string) => {
      // The allowed edge closes a circle when its target still reaches its source.
      const seen = new Set<string>();
      const queue = [to];
      while (queue.length > 0) {
        const node = queue.pop() as string;
        if (node === from) return true;
        if (seen.has(node)) continue;
        seen.add(node);
        queue.push(...(graph.get(node) ?? []));
      }
      return false;
    };
    const stale = Object.keys(allowed).filter((key) => {
      const edge = existing.get(key);
      return !edge || (ruleBroken(edge.from, edge.to) === null && !inCircleWithout(edge.from, edge.to));
    });
    expect(stale).toEqual([]);
  });
});
