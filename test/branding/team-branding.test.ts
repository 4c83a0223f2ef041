/**
 * A team's branding on SQLite and PostgreSQL (migration 032's `brandings.team_id`, a foreign key to migration
 * 031's teams): it is stored for a team that exists, refused for one that does not, and deleted with its team.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AccountService } from "../../src/accounts/account-service.js";
import { BrandingStore } from "../../src/branding/branding-store.js";
import { TeamStore } from "../../src/teams/team-store.js";
import { timestamp } from "../../src/timestamps.js";
import { databaseKinds, freshDatabase, type TestDatabase } from "../helpers/api.js";

const branding = () => ({ brand_name: "Agency", logo: null, logo_type: null, updated_at: timestamp() });

describe.each(databaseKinds)("a team's branding on %s", (kind) => {
  let database: TestDatabase;
  let brandings: BrandingStore;
  let teams: TeamStore;
  let ownerId: number;

  beforeAll(async () => {
    database = await freshDatabase(kind);
    brandings = new BrandingStore(database.store);
    teams = new TeamStore(database.store);
    ownerId = (await new AccountService(database.store).createUser("owner@example.com", null)).account.id;
  });
  afterAll(async () => {
    await database.drop();
  });

  it("is deleted with its team", async () => {
    const team = await teams.create("Agency", ownerId, timestamp());
    await brandings.save({ kind: "team", id: team.id }, branding());
    expect((await brandings.find({ kind: "team", id: team.id }))?.brand_name).toBe("Agency");

    expect(await teams.delete(team.id)).toBe(true);
    expect(await brandings.find({ kind: "team", id: team.id })).toBeUndefined();
  });

  it("cannot name a team that does not exist", async () => {
    await expect(brandings.save({ kind: "team", id: 999_999 }, branding())).rejects.toThrow(/foreign key/i);
  });
});
