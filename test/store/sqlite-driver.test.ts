import { describe, expect, it } from "vitest";
import { sqliteDatabaseClass, sqliteDriverPackage } from "../../src/store/sqlite-driver.js";

describe(`the SQLite driver on Node.js ${process.versions.node}`, () => {
  it("is the release that supports this runtime", () => {
    const major = Number(process.versions.node.split(".")[0]);
    expect(sqliteDriverPackage).toBe(major >= 22 ? "better-sqlite3" : "better-sqlite3-node20");
  });

  it("opens a database, runs statements and lets them be collected", () => {
    const SqliteDatabase = sqliteDatabaseClass();
    for (let round = 0; round < 3; round++) {
      const database = new SqliteDatabase(":memory:");
      database.exec("create table pages (url text)");
      const insert = database.prepare("insert into pages values (?)");
      for (let row = 0; row < 500; row++) insert.run(`https://example.com/${row}`);
      expect(database.prepare("select count(*) as rows from pages").get()).toEqual({ rows: 500 });
      database.close();
    }
    // The statements above become garbage. On Node.js 24 a driver built on the old ObjectWrap aborts the
    // worker process when they are collected or when it exits, which fails the run (seen with release 12).
  });
});
