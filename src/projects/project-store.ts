/** One project of a user in figures: its reports counted by result, their mean score, first and last dates. */
import { type Kysely, sql } from "kysely";
import type { Database } from "../store/schema.js";
import type { Store } from "../store/store.js";

export interface ProjectFigures {
  reports: number;
  good: number;
  decent: number;
  bad: number;
  average_score: number | null;
  created_at: string;
  last_generated_at: string | null;
}

export class ProjectStore {
  private readonly db: Kysely<Database>;

  constructor(store: Store) {
    this.db = store.db;
  }

  /** The figures of the user's project; undefined when the user has no report in it. */
  async figures(userId: number, project: string): Promise<ProjectFigures | undefined> {
    const row = await this.db
      .selectFrom("reports")
      .select((eb) => [
        eb.fn.countAll<number>().as("reports"),
        sql<number>`sum(case when result = 'good' then 1 else 0 end)`.as("good"),
        sql<number>`sum(case when result = 'decent' then 1 else 0 end)`.as("decent"),
        sql<number>`sum(case when result = 'bad' then 1 else 0 end)`.as("bad"),
        eb.fn.avg<number>("score").as("average_score"),
        eb.fn.min("created_at").as("created_at"),
        eb.fn.max("generated_at").as("last_generated_at"),
      ])
      .where("user_id", "=", userId)
      .where("project", "=", project)
      .executeTakeFirst();
    if (!row || Number(row.reports) === 0) return undefined;
    return {
      reports: Number(row.reports),
      good: Number(row.good),
      decent: Number(row.decent),
      bad: Number(row.bad),
      average_score: row.average_score === null ? null : Number(row.average_score),
      created_at: row.created_at as string,
      last_generated_at: (row.last_generated_at as string | null) ?? null,
    };
  }
}
