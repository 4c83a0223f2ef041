/**
 * A user's projects, read from their reports (a report's `project`): listed with their figures, one project in
 * figures (its reports counted by result, their mean score, first and last dates), deleted with its reports.
 */
import { type Kysely, sql } from "kysely";
import { escapeLike } from "../store/like-pattern.js";
import { inWorkspace, type Owner } from "../store/owned-rows.js";
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

export interface ProjectListQuery {
  search?: string;
  sortBy: "created_at" | "project";
  direction: "asc" | "desc";
  limit: number;
  offset: number;
}

export interface ProjectRow {
  project: string;
  reports: number;
  average_score: number;
  created_at: string;
  last_generated_at: string;
}

export class ProjectStore {
  private readonly db: Kysely<Database>;

  constructor(private readonly store: Store) {
    this.db = store.db;
  }

  /** The figures of the user's project; undefined when the user has no report in it. */
  async figures(owner: Owner, project: string): Promise<ProjectFigures | undefined> {
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
      .where(inWorkspace(owner))
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

  /** The user's projects, each with its reports' count, mean score, first and last dates. */
  async list(owner: Owner, query: ProjectListQuery): Promise<{ rows: ProjectRow[]; total: number }> {
    let filtered = this.db.selectFrom("reports").where(inWorkspace(owner));
    if (query.search !== undefined) {
      // Project names are short and few per user: a case-insensitive pattern match needs no index.
      const pattern = `%${escapeLike(query.search)}%`;
      filtered =
        this.store.dialect === "postgres"
          ? filtered.where(sql<boolean>`project ilike ${pattern} escape '\\'`)
          : filtered.where(sql<boolean>`project like ${pattern} escape '\\'`);
    }
    const grouped = filtered
      .select((eb) => [
        "project",
        eb.fn.countAll<number>().as("reports"),
        eb.fn.avg<number>("score").as("average_score"),
        eb.fn.min("created_at").as("created_at"),
        eb.fn.max("generated_at").as("last_generated_at"),
      ])
      .groupBy("project");
    const [counted, rows] = await Promise.all([
      filtered.select(sql<number>`count(distinct project)`.as("total")).executeTakeFirstOrThrow(),
      this.db
        .selectFrom(grouped.as("projects"))
        .selectAll()
        .orderBy(query.sortBy, query.direction)
        .orderBy("project", query.direction)
        .limit(query.limit)
        .offset(query.offset)
        .execute(),
    ]);
    return {
      rows: rows.map((row) => ({
        project: row.project,
        reports: Number(row.reports),
        average_score: Number(row.average_score),
        created_at: row.created_at as string,
        last_generated_at: row.last_generated_at as string,
      })),
      total: Number(counted.total),
    };
  }

  /** Deletes the user's reports of one project in one statement; returns how many there were. */
  async delete(owner: Owner, project: string): Promise<number> {
    const result = await this.db
      .deleteFrom("reports")
      .where(inWorkspace(owner))
      .where("project", "=", project)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
