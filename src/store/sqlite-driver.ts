/**
 * The SQLite driver for the running Node.js. better-sqlite3 13 is built on Node-API and ships prebuilt
 * binaries, but supports Node.js 22 and later only; release 12 still builds for Node.js 20, yet aborts the
 * process on Node.js 24 (its statements use the old ObjectWrap, whose destructor Node.js 24 asserts on when a
 * statement is collected outside a JavaScript context). Both are installed (12 under the alias
 * `better-sqlite3-node20`) and the one that works here is loaded. Their JavaScript API is the same.
 */
import { createRequire } from "node:module";
import type BetterSqlite3 from "better-sqlite3";

const require = createRequire(import.meta.url);

/** The first Node.js major the current better-sqlite3 release supports. */
const currentDriverSince = 22;

export const nodeMajor = Number.parseInt(process.versions.node.split(".")[0] ?? "0", 10);

/** The package name of the driver this runtime loads (for messages and tests). */
export const sqliteDriverPackage =
  nodeMajor >= currentDriverSince ? "better-sqlite3" : "better-sqlite3-node20";

export const SqliteDatabase = require(sqliteDriverPackage) as typeof BetterSqlite3;
