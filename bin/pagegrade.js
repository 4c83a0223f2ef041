#!/usr/bin/env node
// The `pagegrade` command. It runs the JavaScript that `npm install` compiled into dist/ while that is current
// (bin/compiled.js), and otherwise the TypeScript sources through tsx's loader, so a checkout works right after
// `npm install` and after any edit, with no build step to remember. `pagegrade worker`, a long-running process, first makes
// sure it runs with the memory settings `npm start` applies (see memory-settings.js). `pagegrade help` (or no
// command) prints the usage text, plain JavaScript, without starting the loader at all.
import { fileURLToPath } from "node:url";
import { helpArguments, usage } from "../src/cli/usage-text.mjs";
import { importCompiledOrSource } from "./compiled.js";
import { followParent, hasMemorySettings, relaunchWithMemorySettings } from "./memory-settings.js";

const args = process.argv.slice(2);
if (helpArguments.includes(args[0])) {
  process.stdout.write(`${usage}\n`);
  process.exitCode = args[0] === undefined ? 2 : 0;
} else if (args[0] === "worker" && !hasMemorySettings()) {
  relaunchWithMemorySettings(fileURLToPath(import.meta.url), args);
} else {
  followParent();
  await importCompiledOrSource("cli/main");
}
