// The analysis pool's threads start here: a worker thread does not inherit the loader that lets the process
// run TypeScript (`npm start`'s `--import tsx`, the command line's `register()`, vitest's own), so it registers
// tsx's loader for itself before loading the thread's body.
import { register } from "tsx/esm/api";

register();
await import("./analysis-thread.ts");
