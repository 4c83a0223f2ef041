#!/usr/bin/env node
// The `pagegrade` command. It runs the TypeScript sources through tsx's loader, so a checkout works right
// after `npm install`, with no build step to remember.
import { register } from "tsx/esm/api";

register();
await import("../src/cli/main.ts");
