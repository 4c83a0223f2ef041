/** The rules of projects: a user's reports grouped by project, listed with their mean score, deleted together. */
import { resultOf } from "../analysis/score.js";
import type { Scoring } from "../analysis/scoring-config.js";
import type { ProjectListQuery, ReportStore } from "../store/report-store.js";

export interface ProjectSummary {
  project: string;
  reports: number;
  score: number;
  result: string;
  created_at: string;
  last_generated_at: string;
}

export class ProjectService {
  constructor(
    private readonly reports: ReportStore,
    private readonly scoring: Scoring,
  ) {}

  async list(userId: number, query: ProjectListQuery): Promise<{ rows: ProjectSummary[]; total: number }> {
    const { rows, total } = await this.reports.listProjects(userId, query);
    return {
      total,
      rows: rows.map((row) => {
        const score = Math.round(row.average_score);
        return {
          project: row.project,
          reports: row.reports,
          score,
          result: resultOf(score, this.scoring),
          created_at: row.created_at,
          last_generated_at: row.last_generated_at,
        };
      }),
    };
  }

  /** Deletes the user's reports of the project; returns how many, 0 when the user has no such project. */
  delete(userId: number, project: string): Promise<number> {
    return this.reports.deleteProject(userId, project);
  }
}
