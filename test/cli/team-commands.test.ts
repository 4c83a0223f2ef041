/**
 * `pagegrade team create|list` and `pagegrade user list|disable|enable` against SQLite and PostgreSQL: a team
 * owned by the named user, lists for operators, precise refusals; disabling a user stops their API key and web
 * session at once (also when the key was just used and is remembered), enabling brings the key back.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SessionService } from "../../src/accounts/session-service.js";
import { TeamStore } from "../../src/teams/team-store.js";
import { call, databaseKinds, startApi, type TestApi } from "../helpers/api.js";
import { pagegradeInProcess } from "../helpers/cli-in-process.js";

describe.each(databaseKinds)("pagegrade team and user administration on %s", (kind) => {
  let api: TestApi;
  let pagegrade: (args: string[]) => ReturnType<typeof pagegradeInProcess>;

  beforeAll(async () => {
    api = await startApi(kind);
    const { url, schema } = api.database;
    const databaseUrl = schema ? `${url}?options=-c%20search_path%3D${schema}%2Cpublic` : url;
    pagegrade = (args) => pagegradeInProcess(args, { DATABASE_URL: databaseUrl });
  });
  afterAll(async () => {
    await api.close();
  });

  it("creates and lists teams", async () => {
    await api.newUser("lead@example.com");
    const created = await pagegrade(["team", "create", "--name", "Agency", "--owner", "Lead@Example.com"]);
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toMatch(/^Created team Agency \(id \d+\) owned by lead@example\.com\.$/m);
    const teams = await new TeamStore(api.database.store).all({ limit: 10, offset: 0 });
    expect(teams).toEqual([
      expect.objectContaining({ name: "Agency", members: 1, owners: ["lead@example.com"] }),
    ]);

    const all = await pagegrade(["team", "list"]);
    expect(all.stdout).toMatch(/^\d+\tAgency\t1 members\towners lead@example\.com\t/m);
    const theirs = await pagegrade(["team", "list", "--email", "lead@example.com"]);
    expect(theirs.stdout).toMatch(/^\d+\tAgency\towner\t1 members$/m);

    const nobody = await pagegrade(["team", "create", "--name", "X", "--owner", "nobody@example.com"]);
    expect([nobody.code, nobody.stderr]).toEqual([
      1,
      "pagegrade: no user has the e-mail nobody@example.com\n",
    ]);
    const long = await pagegrade([
      "team",
      "create",
      "--name",
      "x".repeat(101),
      "--owner",
      "lead@example.com",
    ]);
    expect([long.code, long.stderr]).toEqual([
      1,
      "pagegrade: The name may not be longer than 100 characters.\n",
    ]);
    const noName = await pagegrade(["team", "create", "--owner", "lead@example.com"]);
    expect(noName.code).toBe(2);
    expect(noName.stderr).toContain("--name is required");
    expect((await pagegrade(["team", "rename"])).code).toBe(2);
  });

  it("disables a user's key and sessions at once, and enables them again", async () => {
    const key = await api.newUser("leaver@example.com");
    expect((await call(api, "GET", "/api/v1/account", { key })).statusCode).toBe(200); // remembered now
    const userId = (await call(api, "GET", "/api/v1/account", { key })).json().data.id;
    const sessions = new SessionService(api.database.store);
    const session = await sessions.create(userId);
    expect((await sessions.find(session))?.account.id).toBe(userId);

    const disabled = await pagegrade(["user", "disable", "--email", "leaver@example.com"]);
    expect(disabled.code, disabled.stderr).toBe(0);
    expect(disabled.stdout).toMatch(
      /^Disabled leaver@example\.com at .*: their keys and sessions no longer work\.$/m,
    );
    expect((await call(api, "GET", "/api/v1/account", { key })).statusCode).toBe(401);
    expect(await sessions.find(session)).toBe(null);
    const listed = await pagegrade(["user", "list"]);
    expect(listed.stdout).toMatch(/\tleaver@example\.com\tdisabled since \S+\tcreated /);

    expect((await pagegrade(["user", "enable", "--email", "leaver@example.com"])).stdout).toBe(
      "Enabled leaver@example.com.\n",
    );
    expect((await call(api, "GET", "/api/v1/account", { key })).statusCode).toBe(200);
    expect((await pagegrade(["user", "list"])).stdout).toMatch(/\tleaver@example\.com\tenabled\tcreated /);
    const unknown = await pagegrade(["user", "disable", "--email", "ghost@example.com"]);
    expect([unknown.code, unknown.stderr]).toEqual([
      1,
      "pagegrade: no user has the e-mail ghost@example.com\n",
    ]);
  });
});
