/**
 * The SQLite driver for the running Node.js. better-sqlite3 13 is built on Node-API and ships prebuilt
 * binaries, but supports Node.js 22 and later only; release 12 still builds for Node.js 20, yet aborts the
 * process on Node.js 24 (its statements use the old ObjectWrap, whose destructor Node.js 24 asserts on when a
 * statement is collected outside a JavaScript context). Both are optional dependencies (12 under the alias
 * `better-sqlite3-node20`, built from source at install), so npm installs what it can for this runtime, and
 * the one that works here is loaded. Their JavaScript API is the same.
 */
import { createRequire } from "node:module";
import type BetterSqlite3 from "better-sqlite3";

const require = createRequire(import.meta.url);

/** The first Node.js major the current better-sqlite3 release supports. */
const currentDriverSince = 22;

const nodeMajor = Number.parseInt(process.versions.node.split(".")[0] ?? "0", 10);

/** The package this runtime loads. */
export const sqliteDriverPackage =
  nodeMajor >= currentDriverSince ? "better-sqlite3" : "better-sqlite3-node20";

let driver: typeof BetterSqlite3 | undefined;

/** The driver's Database class; loaded on first use, so a PostgreSQL deployment never needs it. */
export function sqliteDatabaseClass(): typeof BetterSqlite3 {
  if (driver) return driver;
  try {
    driver = require(sqliteDriverPackage) as typeof BetterSqlite3;
  } catch (error) {
    const hint =
      sqliteDriverPackage === "better-sqlite3-node20"
        ? "on Node.js 20 it is built from source at install, which needs python3, make and a C++ compiler; install them and run `npm rebuild better-sqlite3-node20`, or use Node.js 22 or 24"
        : "run `npm install` with this Node.js";
    throw new Error(
      `The SQLite driver (${sqliteDriverPackage}) cannot be loaded on Node.js ${process.versions.node}: ${hint}. ` +
        `(${(error as Error).message.split("\n")[0]})`,
    );
  }
  return driver;
}
