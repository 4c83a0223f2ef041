/**
 * The command run from a folder other than the checkout, as a CI job in another repository runs it: relative
 * paths given to --baseline, --budget, --junit, --file and --json-lines are the caller's, read and written in the
 * folder the command was started in, never in the checkout. Both ways the README names are run: node with the
 * checkout's bin/pagegrade.js, and npm exec with the checkout as its prefix.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { html, type LocalServer, startServer } from "../helpers/local-server.js";

const run = promisify(execFile);
const root = new URL("../..", import.meta.url).pathname;
const bin = join(root, "bin/pagegrade.js");

const launchers = {
  "node <checkout>/bin/pagegrade.js": [process.execPath, bin],
  "npm exec --prefix <checkout> --no -- pagegrade": [
    "npm",
    "exec",
    "--prefix",
    root,
    "--no",
    "--",
    "pagegrade",
  ],
} as const;

describe.each(Object.entries(launchers))(
  "pagegrade from another folder, as %s",
  { timeout: 240_000 },
  (_name, launcher) => {
    let server: LocalServer;
    let folder: string;

    /** Runs the command in `folder`; resolves with its exit code and output. */
    async function pagegrade(args: string[]) {
      const [command, ...prefix] = launcher;
      try {
        const { stdout, stderr } = await run(command, [...prefix, ...args], {
          cwd: folder,
          env: { ...process.env, NO_COLOR: "1", PAGEGRADE_ALLOW_PRIVATE_NETWORKS: "1" },
        });
        return { code: 0, stdout, stderr };
      } catch (error) {
        const failed = error as { code: number; stdout: string; stderr: string };
        return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
      }
    }

    beforeAll(async () => {
      folder = mkdtempSync(join(tmpdir(), "pagegrade-caller-"));
      server = await startServer({
        "/": html(
          '<!doctype html><html lang="en"><title>Bicycle repair at home</title><h1>Bicycle repair</h1></html>',
        ),
      });
    });
    afterAll(async () => {
      await server.close();
      rmSync(folder, { recursive: true, force: true });
    });

    it("reads --baseline and --budget and writes --junit in the caller's folder", async () => {
      const saved = await pagegrade(["analyze", `${server.url}/`, "--json"]);
      expect(saved.code).toBe(0);
      writeFileSync(join(folder, "previous.json"), saved.stdout);
      writeFileSync(join(folder, "budget.json"), JSON.stringify({ score: 0 }));

      const gated = await pagegrade([
        "analyze",
        `${server.url}/`,
        "--baseline",
        "previous.json",
        "--budget",
        "budget.json",
        "--junit",
        "pagegrade.xml",
      ]);
      expect(gated.stderr).toBe("");
      expect(gated.code).toBe(0);
      expect(gated.stdout).toContain("Changes since the baseline of ");
      expect(readFileSync(join(folder, "pagegrade.xml"), "utf8")).toContain("<testsuites");
      expect(existsSync(join(root, "pagegrade.xml"))).toBe(false);
    });

    it("reads --file and writes --json-lines in the caller's folder", async () => {
      writeFileSync(join(folder, "urls.txt"), `${server.url}/\n`);
      const listed = await pagegrade(["analyze", "--file", "urls.txt", "--json-lines", "out.jsonl"]);
      expect(listed.code).toBe(0);
      const lines = readFileSync(join(folder, "out.jsonl"), "utf8").trim().split("\n");
      expect(lines).toHaveLength(1);
      expect((JSON.parse(lines[0] as string) as { url: string }).url).toBe(`${server.url}/`);
      expect(existsSync(join(root, "out.jsonl"))).toBe(false);
    });
  },
);
