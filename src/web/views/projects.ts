/** The projects page: each project with its report count and mean score. */
import type { ProjectSummary } from "../../projects/project-service.js";
import { html, type SafeHtml } from "../html.js";

export function projectsBody(projects: ProjectSummary[]): SafeHtml {
  return html`<h1>Projects</h1>
<section class="card">
  ${
    projects.length === 0
      ? html`<p>No projects yet: <a href="/reports">analyse a page</a> and its site becomes a project.</p>`
      : html`<table>
    <thead><tr><th scope="col">Project</th><th scope="col">Reports</th><th scope="col">Average score</th><th scope="col">Last report</th><th scope="col"><span class="muted">Actions</span></th></tr></thead>
    <tbody>${projects.map(
      (project) => html`<tr>
      <td><a href="/reports?project=${encodeURIComponent(project.project)}">${project.project}</a></td>
      <td>${project.reports}</td>
      <td><span class="result-${project.result}">${project.score} (${project.result})</span></td>
      <td>${project.last_generated_at.slice(0, 16).replace("T", " ")}</td>
      <td><a href="/projects/${encodeURIComponent(project.project)}/delete">Delete…</a></td>
    </tr>`,
    )}</tbody>
  </table>`
  }
</section>`;
}
