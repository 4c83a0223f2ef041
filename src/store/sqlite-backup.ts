/**
 * A consistent copy of the embedded SQLite database while the service keeps serving and writing
 * (`pagegrade backup`). The copy is made with `VACUUM INTO`, which reads the whole database in one read transaction:
 * under WAL that transaction sees the database as it was when it began, whatever the service commits meanwhile,
 * and blocks none of its writes (SQLite's online backup API, by contrast, starts over whenever another process
 * writes, so under a busy service it might never finish). The copy goes to a temporary file beside the target,
 * is synced, passes `PRAGMA integrity_check`, and only then takes the target's name (a rename, atomic on one file
 * system): a backup cut off halfway leaves at most a `*.tmp-*` file, never a half file under the target's name.
 */
import { randomBytes } from "node:crypto";
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { sqliteDatabaseClass } from "./sqlite-driver.js";

/** Why a backup was not made: a sentence for the operator (no stack trace). */
export class BackupRefused extends Error {
  override readonly name = "BackupRefused";
}

export interface BackupOptions {
  /** Replace an existing target file. */
  force?: boolean;
}

export interface BackupResult {
  source: string;
  target: string;
  bytes: number;
  milliseconds: number;
}

/** Copies the SQLite database at `sourcePath` to `targetPath`; see the file's header. */
export function backupSqlite(
  sourcePath: string,
  targetPath: string,
  options: BackupOptions = {},
): BackupResult {
  const started = performance.now();
  const source = resolve(sourcePath);
  const target = resolve(targetPath);
  if (!existsSync(source)) throw new BackupRefused(`there is no database at ${source}: nothing to back up`);
  if (target === source) throw new BackupRefused("the backup cannot replace the database it copies");
  if (existsSync(target)) {
    if (!options.force) throw new BackupRefused(`${target} exists; pass --force to replace it`);
    if (statSync(target).isDirectory()) throw new BackupRefused(`${target} is a directory`);
  }
  mkdirSync(dirname(target), { recursive: true });
  const temporary = join(
    dirname(target),
    `.${basename(target)}.tmp-${process.pid}-${randomBytes(4).toString("hex")}`,
  );
  const Database = sqliteDatabaseClass();
  try {
    const database = new Database(source, { fileMustExist: true });
    try {
      // The service's writers hold the write lock for milliseconds at a time; a reader waits no longer than that.
      database.pragma("busy_timeout = 10000");
      database.prepare("vacuum into ?").run(temporary);
    } finally {
      database.close();
    }
    const copy = new Database(temporary, { fileMustExist: true });
    try {
      const check = copy.pragma("integrity_check") as { integrity_check: string }[];
      const verdict = check.map((row) => row.integrity_check).join("; ");
      if (verdict !== "ok") throw new BackupRefused(`the copy failed its integrity check: ${verdict}`);
    } finally {
      copy.close();
    }
    // VACUUM INTO does not sync what it wrote; the copy is on disk before it takes the target's name.
    syncPath(temporary);
    renameSync(temporary, target);
    syncPath(dirname(target));
  } catch (error) {
    for (const leftover of [temporary, `${temporary}-journal`, `${temporary}-wal`, `${temporary}-shm`])
      rmSync(leftover, { force: true });
    if (error instanceof BackupRefused) throw error;
    throw new BackupRefused(`the backup of ${source} failed: ${(error as Error).message}`);
  }
  return { source, target, bytes: statSync(target).size, milliseconds: performance.now() - started };
}

function syncPath(path: string): void {
  const descriptor = openSync(path, "r");
  try {
    fsyncSync(descriptor);
  } finally {
    closeSync(descriptor);
  }
}
