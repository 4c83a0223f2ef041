/**
 * Team memberships remembered between requests (src/teams/membership-memory.ts), on SQLite and PostgreSQL: a
 * known member's request in the team's workspace costs no membership query, and another connection's change (a
 * raw one of its own: better-sqlite3 on the same file, `pg` on the same schema) is seen by the very next request:
 * a member removed gets 404, a member demoted from editor to viewer gets 403 on a write, a team report changed or
 * added shows in the team's list (on PostgreSQL also one added while the team's row is locked, whose version goes
 * to team_report_changes), a deleted team's member gets 404. Whether a request was answered from memory is seen
 * by counting the membership lookups (TeamStore.roleAndVersion) the service sends to the database.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ReportStore } from "../../src/store/report-store.js";
import { sqliteDatabaseClass } from "../../src/store/sqlite-driver.js";
import { call, databaseKinds, postgresUrl, startApi, type TestApi } from "../helpers/api.js";
import { seedRow } from "../helpers/seed.js";

/** Another connection to the same database, as another process would have. */
interface Elsewhere {
  run(statement: string, ...values: unknown[]): Promise<void>;
  close(): Promise<void>;
}

async function elsewhereOn(api: TestApi): Promise<Elsewhere> {
  if (api.database.schema === undefined) {
    const Sqlite = sqliteDatabaseClass();
    const sqlite = new Sqlite(api.database.url.slice("sqlite:".length));
    sqlite.pragma("busy_timeout = 5000");
    return {
      run: async (statement, ...values) => {
        sqlite.prepare(statement.replace(/\$\d+/g, "?")).run(...values);
      },
      close: async () => {
        sqlite.close();
      },
    };
  }
  const client = new pg.Client({
    connectionString: postgresUrl,
    options: `-c search_path=${api.database.schema},public`,
  });
  await client.connect();
  return {
    run: async (statement, ...values) => {
      await client.query(statement, values);
    },
    close: () => client.end(),
  };
}

describe.each(databaseKinds)("remembered team memberships on %s", (kind) => {
  let api: TestApi;
  let elsewhere: Elsewhere;
  let owner: string;
  let ownerId: number;
  let lookups = 0;

  beforeAll(async () => {
    api = await startApi(kind, { PAGEGRADE_RATE_LIMIT: "1000" });
    const db = api.database.store.db;
    const executeQuery = db.executeQuery.bind(db);
    db.executeQuery = ((query: Parameters<typeof executeQuery>[0]) => {
      if (
        "sql" in query &&
        query.sql.includes('"team_members"."role"') &&
        query.sql.includes('"reports_version"')
      )
        lookups++;
      return executeQuery(query);
    }) as typeof db.executeQuery;
    elsewhere = await elsewhereOn(api);
    owner = await api.newUser();
    ownerId = (await api.accounts.authenticate(owner))?.account.id as number;
  });
  afterAll(async () => {
    await elsewhere?.close();
    await api?.close();
  });

  /** The membership lookups a request sent to the database. */
  async function lookupsOf<T>(request: () => Promise<T>): Promise<{ result: T; lookups: number }> {
    const before = lookups;
    const result = await request();
    return { result, lookups: lookups - before };
  }

  /** Requests until one is answered from memory, for at most 10 s. */
  async function untilRemembered(request: () => Promise<{ statusCode: number }>): Promise<void> {
    const deadline = performance.now() + 10_000;
    while (performance.now() < deadline) {
      const { result, lookups: sent } = await lookupsOf(request);
      expect(result.statusCode).toBe(200);
      if (sent === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error("the membership was never answered from memory");
  }

  /** A new team of the owner's with a member of this role (added by another connection), and the member's key. */
  async function teamWithMember(role: string): Promise<{ teamId: number; member: string; memberId: number }> {
    const created = await call(api, "POST", "/api/v1/teams", { key: owner, json: { name: "Agency" } });
    expect(created.statusCode, created.body).toBe(201);
    const teamId = created.json().data.id as number;
    const member = await api.newUser();
    const memberId = (await api.accounts.authenticate(member))?.account.id as number;
    await elsewhere.run(
      "insert into team_members (team_id, user_id, role, joined_at) values ($1, $2, $3, $4)",
      teamId,
      memberId,
      role,
      new Date().toISOString(),
    );
    return { teamId, member, memberId };
  }

  const teamReport = async (teamId: number, url: string, score: number) =>
    (
      await new ReportStore(api.database.store).insert({
        ...seedRow(ownerId, { url, score }),
        team_id: teamId,
      })
    ).id;
  const listOf = (key: string, teamId: number) => call(api, "GET", `/api/v1/reports?team=${teamId}`, { key });
  const scoresOf = (response: { json(): { data: Array<{ score: number }> } }) =>
    response.json().data.map((report) => report.score);

  it("answers a known member from memory, and 404 right after another connection removes them", async () => {
    const { teamId, member, memberId } = await teamWithMember("viewer");
    const id = await teamReport(teamId, "https://a.example/", 70);
    const show = () => call(api, "GET", `/api/v1/reports/${id}?team=${teamId}`, { key: member });
    await untilRemembered(show);
    await untilRemembered(() => listOf(member, teamId));

    await elsewhere.run("delete from team_members where team_id = $1 and user_id = $2", teamId, memberId);
    expect((await show()).statusCode).toBe(404);
    expect((await listOf(member, teamId)).statusCode).toBe(404);
  });

  it("refuses a write right after another connection demotes an editor to viewer", async () => {
    const { teamId, member, memberId } = await teamWithMember("editor");
    const kept = await teamReport(teamId, "https://b.example/", 60);
    const removed = await teamReport(teamId, "https://c.example/", 50);
    await untilRemembered(() => listOf(member, teamId));
    const deleted = await call(api, "DELETE", `/api/v1/reports/${removed}?team=${teamId}`, { key: member });
    expect(deleted.statusCode, deleted.body).toBe(200);

    await untilRemembered(() => listOf(member, teamId));
    await elsewhere.run(
      "update team_members set role = 'viewer' where team_id = $1 and user_id = $2",
      teamId,
      memberId,
    );
    const refused = await call(api, "DELETE", `/api/v1/reports/${kept}?team=${teamId}`, { key: member });
    expect(refused.statusCode, refused.body).toBe(403);
    expect((await listOf(member, teamId)).statusCode).toBe(200);
  });

  it("shows a team report changed by another connection, or added, on the very next request", async () => {
    const { teamId, member } = await teamWithMember("viewer");
    const id = await teamReport(teamId, "https://d.example/", 40);
    await untilRemembered(() => listOf(member, teamId));
    expect(scoresOf(await listOf(member, teamId))).toEqual([40]);

    for (const score of [45, 55, 65]) {
      await elsewhere.run("update reports set score = $1 where id = $2", score, id);
      expect(scoresOf(await listOf(member, teamId))).toEqual([score]);
    }
    await untilRemembered(() => listOf(member, teamId));
    await teamReport(teamId, "https://e.example/", 90);
    expect(scoresOf(await listOf(member, teamId)).sort()).toEqual([65, 90]);
  });

  it.runIf(kind === "postgres")(
    "shows a team report added while the team's row is locked (migration 038's log path) on the very next request",
    async () => {
      const { teamId, member } = await teamWithMember("viewer");
      await teamReport(teamId, "https://f.example/", 30);
      await untilRemembered(() => listOf(member, teamId));
      const holder = new pg.Client({
        connectionString: postgresUrl,
        options: `-c search_path=${api.database.schema},public`,
      });
      await holder.connect();
      try {
        // A lock that `for no key update skip locked` skips (the version goes to team_report_changes instead),
        // compatible with the new report's foreign-key check.
        await holder.query("begin");
        await holder.query("select 1 from teams where id = $1 for share", [teamId]);
        await teamReport(teamId, "https://g.example/", 35);
        const { rows } = await holder.query(
          "select count(*)::int as n from team_report_changes where team_id = $1",
          [teamId],
        );
        expect(rows[0].n).toBe(1);
        expect(scoresOf(await listOf(member, teamId)).sort()).toEqual([30, 35]);
      } finally {
        await holder.query("rollback");
        await holder.end();
      }
    },
  );

  it("forgets a deleted team: its members' next request is 404", async () => {
    const { teamId, member } = await teamWithMember("viewer");
    await untilRemembered(() => listOf(member, teamId));
    await elsewhere.run("delete from teams where id = $1", teamId);
    expect((await listOf(member, teamId)).statusCode).toBe(404);
  });
});
