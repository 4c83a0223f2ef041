/**
 * Entry of the `pagegrade` process (bin/pagegrade.js imports it): runs the command line (command-line.ts) with
 * the process's arguments, the heap growth setting applied first, and exits with its code. Like src/main.ts it
 * is an entry point, so it sits with composition, above the commands.
 */
import { applyHeapGrowth } from "../runtime/heap-growth.js";
import { runCommandLine } from "./command-line.js";

process.exitCode = await runCommandLine(process.argv.slice(2), () => applyHeapGrowth());
