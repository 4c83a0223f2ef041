/** The projects page: each project with its report count and mean score; search, sorting and paging as in the API. */
import type { ProjectSummary } from "../../projects/project-service.js";
import { html, type SafeHtml } from "../html.js";
import { option } from "./forms.js";
import { ignoredNotice, orderFields, paginationNav } from "./list-controls.js";
import { stacked } from "./stacked-table.js";

export interface ProjectListState {
  search: string;
  sort_by: string;
  sort: string;
  per_page: number;
  page: number;
}

export interface ProjectsView {
  items: ProjectSummary[];
  total: number;
  state: ProjectListState;
  ignored: string[];
  /** A viewer of a team's workspace: no delete links. */
  readOnly?: boolean;
}

export function projectsBody({ items, total, state, ignored, readOnly }: ProjectsView): SafeHtml {
  const filtered = state.search !== "";
  return html`<h1>Projects</h1>
<section class="card">
  ${ignoredNotice(ignored)}
  <form method="get" action="/projects" class="form-row" role="search">
    <div><label for="search">Search projects</label><input id="search" name="search" value="${state.search}" maxlength="255"></div>
    <div><label for="sort_by">Sort by</label><select id="sort_by" name="sort_by">${option("created_at", "Date created", state.sort_by)}${option("project", "Name", state.sort_by)}</select></div>
    ${orderFields(state)}
    <div><button type="submit">Apply</button></div>
  </form>
  ${
    items.length === 0
      ? filtered || total > 0
        ? html`<p>No projects match.</p>`
        : html`<p>No projects yet: <a href="/reports">analyse a page</a> and its site becomes a project.</p>`
      : stacked(html`<table>
    <thead><tr><th scope="col">Project</th><th scope="col">Reports</th><th scope="col">Average score</th><th scope="col">Last report</th><th scope="col"><span class="muted">Actions</span></th></tr></thead>
    <tbody>${items.map(
      (project) => html`<tr>
      <td><a href="/reports?project=${encodeURIComponent(project.project)}">${project.project}</a></td>
      <td>${project.reports}</td>
      <td><span class="result-${project.result}">${project.score} (${project.result})</span></td>
      <td>${project.last_generated_at.slice(0, 16).replace("T", " ")}</td>
      <td><a href="/projects/${encodeURIComponent(project.project)}">Dashboard</a> · <a href="/crawls?project=${encodeURIComponent(project.project)}">Crawls</a>${readOnly ? "" : html` · <a href="/projects/${encodeURIComponent(project.project)}/delete">Delete…</a>`}</td>
    </tr>`,
    )}</tbody>
  </table>`)
  }
  ${paginationNav("/projects", { ...state }, total, total === 1 ? "project" : "projects")}
</section>`;
}
