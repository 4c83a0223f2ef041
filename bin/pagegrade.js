#!/usr/bin/env node
// The `pagegrade` command's Node.js entry (bin/pagegrade, the installed command, runs it with `pagegrade
// worker`'s memory settings). It runs the JavaScript that `npm install` compiled into dist/ while that is current
// (bin/compiled.js), and otherwise the TypeScript sources through tsx's loader, so a checkout works right after
// `npm install` and after any edit, with no build step to remember. `pagegrade help` (or no command) prints the
// usage text, plain JavaScript, without starting the loader at all.
import { helpArguments, usage } from "../src/cli/usage-text.mjs";
import { importCompiledOrSource } from "./compiled.js";

const args = process.argv.slice(2);
if (helpArguments.includes(args[0])) {
  process.stdout.write(`${usage}\n`);
  process.exitCode = args[0] === undefined ? 2 : 0;
} else {
  await importCompiledOrSource("cli/main");
}
