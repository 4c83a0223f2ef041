/**
 * The rules of projects: a user's reports grouped by project, listed with their mean score, shown one at a time
 * with their results, deleted together.
 */
import { resultOf } from "../analysis/score.js";
import type { Scoring } from "../analysis/scoring-config.js";
import type { Owner } from "../store/owned-rows.js";
import type { ProjectListQuery, ProjectStore } from "./project-store.js";

export interface ProjectSummary {
  project: string;
  reports: number;
  score: number;
  result: string;
  created_at: string;
  last_generated_at: string;
}

/** A project shown on its own: its reports by result and their mean score (null when none has one). */
export interface ProjectDetail {
  project: string;
  reports: number;
  results: { good: number; decent: number; bad: number };
  score: number | null;
  result: string | null;
  created_at: string;
  last_generated_at: string | null;
}

export class ProjectService {
  constructor(
    private readonly projects: ProjectStore,
    private readonly scoring: Scoring,
  ) {}

  /** The workspace's project, or undefined when the workspace has no report in it. */
  async show(owner: Owner, project: string): Promise<ProjectDetail | undefined> {
    const figures = await this.projects.figures(owner, project);
    if (!figures) return undefined;
    const score = figures.average_score === null ? null : Math.round(figures.average_score);
    return {
      project,
      reports: figures.reports,
      results: { good: figures.good, decent: figures.decent, bad: figures.bad },
      score,
      result: score === null ? null : resultOf(score, this.scoring),
      created_at: figures.created_at,
      last_generated_at: figures.last_generated_at,
    };
  }

  async list(owner: Owner, query: ProjectListQuery): Promise<{ rows: ProjectSummary[]; total: number }> {
    const { rows, total } = await this.projects.list(owner, query);
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

  /** Deletes the workspace's reports of the project; returns how many, 0 when it has no such project. */
  delete(owner: Owner, project: string): Promise<number> {
    return this.projects.delete(owner, project);
  }
}
