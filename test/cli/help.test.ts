/**
 * `pagegrade help`: bin/pagegrade.js prints the usage text itself, before it starts the TypeScript loader (the
 * command's quickest start); in-process callers of the command line get the same text. No command prints it
 * too, with exit 2.
 */
import { describe, expect, it } from "vitest";
import { usage } from "../../src/cli/usage-text.mjs";
import { pagegradeInProcess } from "../helpers/cli-in-process.js";
import { pagegradeProcess } from "../helpers/cli-process.js";

describe("pagegrade help", () => {
  it("prints the usage text with exit 0 (help, --help, -h) and with exit 2 when no command is given", async () => {
    for (const argument of ["help", "--help", "-h"]) {
      const shown = await pagegradeProcess([argument]);
      expect(shown, argument).toMatchObject({ code: 0, stdout: `${usage}\n`, stderr: "" });
    }
    expect(await pagegradeProcess([])).toMatchObject({ code: 2, stdout: `${usage}\n` });
    expect(await pagegradeInProcess(["help"])).toMatchObject({ code: 0, stdout: `${usage}\n` });
    expect(usage).toMatch(/^Usage:\n {2}pagegrade analyze <url>/);
  });

  it("names an unknown command and prints the usage text on stderr, exit 2", async () => {
    const unknown = await pagegradeInProcess(["frobnicate"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe(`pagegrade: unknown command "frobnicate"\n\n${usage}\n`);
  });
});
