import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SessionService } from "../../src/accounts/session-service.js";
import { maintenanceTasks } from "../../src/job-registry.js";
import type { JobQueue } from "../../src/jobs/job-queue.js";
import { finishedJobRetentionMs, maintenanceHandler } from "../../src/jobs/maintenance.js";
import { MailOutbox } from "../../src/mail/mail-outbox.js";
import { MailStore } from "../../src/mail/mail-store.js";
import { TeamService } from "../../src/teams/team-service.js";
import { TeamStore } from "../../src/teams/team-store.js";
import { timestamp } from "../../src/timestamps.js";
import { freshDatabase, type TestDatabase } from "../helpers/api.js";

describe("the maintenance job", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await freshDatabase("sqlite");
  });
  afterAll(async () => {
    await database.drop();
  });

  it("sweeps expired sessions and finished jobs past their retention, and nothing else", async () => {
    const { db } = database.store;
    const now = Date.now();
    const user = await db
      .insertInto("users")
      .values({ email: "m@example.com", password_hash: null, created_at: "x", updated_at: "x" })
      .returning("id")
      .executeTakeFirstOrThrow();
    await db
      .insertInto("sessions")
      .values([
        {
          digest: "expired",
          user_id: user.id,
          flash: null,
          created_at: "x",
          expires_at: Math.floor(now / 1000) - 1,
        },
        {
          digest: "current",
          user_id: user.id,
          flash: null,
          created_at: "x",
          expires_at: Math.floor(now / 1000) + 60,
        },
      ])
      .execute();
    const old = timestamp(new Date(now - finishedJobRetentionMs - 60_000));
    const recent = timestamp(new Date(now - 60_000));
    const job = (name: string, state: "completed" | "failed" | "waiting", finished: string | null) => ({
      name,
      payload: "null",
      key: null,
      state,
      run_at: now,
      max_attempts: 1,
      backoff_ms: 1000,
      backoff_max_ms: 1000,
      owner: null,
      locked_until: null,
      last_error: null,
      created_at: old,
      finished_at: finished,
    });
    await db
      .insertInto("jobs")
      .values([
        job("old-completed", "completed", old),
        job("old-failed", "failed", old),
        job("recent-completed", "completed", recent),
        job("old-waiting", "waiting", null),
      ])
      .execute();

    await maintenanceHandler(maintenanceTasks(database.store, new SessionService(database.store)))({
      id: "1",
      name: "maintenance",
      payload: null,
      attempt: 1,
      signal: new AbortController().signal,
    });

    expect((await db.selectFrom("sessions").select("digest").execute()).map((row) => row.digest)).toEqual([
      "current",
    ]);
    const left = await db.selectFrom("jobs").select("name").orderBy("name").execute();
    expect(left.map((row) => row.name)).toEqual(["old-waiting", "recent-completed"]);
  });

  it("clears flashes that earlier versions used to carry a new API key or webhook secret, and no others", async () => {
    const { db } = database.store;
    const user = await db
      .insertInto("users")
      .values({ email: "flash@example.com", password_hash: null, created_at: "x", updated_at: "x" })
      .returning("id")
      .executeTakeFirstOrThrow();
    const session = (digest: string, flash: string) => ({
      digest,
      user_id: user.id,
      flash,
      created_at: "x",
      expires_at: Math.floor(Date.now() / 1000) + 60,
    });
    await db
      .insertInto("sessions")
      .values([
        session("with-key", `new-key:pgk_${"k".repeat(43)}`),
        session("with-secret", `webhook-secret:whsec_${"s".repeat(32)}`),
        session("with-message", "Your password was changed; other sessions were logged out."),
      ])
      .execute();

    await maintenanceHandler(maintenanceTasks(database.store, new SessionService(database.store)))({
      id: "2",
      name: "maintenance",
      payload: null,
      attempt: 1,
      signal: new AbortController().signal,
    });

    const rows = await db
      .selectFrom("sessions")
      .select(["digest", "flash"])
      .where("user_id", "=", user.id)
      .orderBy("digest")
      .execute();
    expect(rows).toEqual([
      { digest: "with-key", flash: null },
      { digest: "with-message", flash: "Your password was changed; other sessions were logged out." },
      { digest: "with-secret", flash: null },
    ]);
  });

  it("purges team activity older than 90 days", async () => {
    const { db } = database.store;
    const user = await db
      .insertInto("users")
      .values({ email: "activity@example.com", password_hash: null, created_at: "x", updated_at: "x" })
      .returning("id")
      .executeTakeFirstOrThrow();
    const teams = new TeamStore(database.store);
    const team = await teams.create("Busy", user.id, timestamp());
    const daysAgo = (days: number) => timestamp(new Date(Date.now() - days * 86_400_000));
    for (const [action, at] of [
      ["report.created", daysAgo(91)],
      ["report.deleted", daysAgo(89)],
    ] as const) {
      await teams.appendActivity({ teamId: team.id, userId: user.id, action, target: "report 1", at });
    }
    const tasks = maintenanceTasks(
      database.store,
      new SessionService(database.store),
      undefined,
      new TeamService(teams, new MailOutbox(null, new MailStore(database.store), {} as JobQueue)),
    );
    await maintenanceHandler(tasks)({
      id: "3",
      name: "maintenance",
      payload: null,
      attempt: 1,
      signal: new AbortController().signal,
    });
    const { rows } = await teams.activity(team.id, { limit: 10, offset: 0 });
    expect(rows.map((row) => row.action)).toEqual(["report.deleted", "team.created"]);
  });
});
