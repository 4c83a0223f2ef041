/** The dashboard of reports, the report management page, confirmations, and the password form. */
import type { ReportStatus } from "../../store/schema.js";
import { html, type SafeHtml } from "../html.js";
import { resultLabel } from "./analysis-status.js";
import { alert, csrfField, field, notice, option, viewerNote } from "./forms.js";
import { scoreChange } from "./history.js";
import { ignoredNotice, orderFields, paginationNav } from "./list-controls.js";
import { stacked } from "./stacked-table.js";

export interface ReportListItem {
  id: number;
  url: string;
  project: string;
  /** Null until the first analysis completes; `status` says where it stands. */
  result: string | null;
  score: number | null;
  status: ReportStatus;
  privacy: number;
  generated_at: string | null;
  /** The score minus the previous complete analysis's; null when there is none. */
  score_change: number | null;
}

export interface ListState {
  search: string;
  project: string;
  result: string;
  sort_by: string;
  sort: string;
  per_page: number;
  page: number;
}

export interface DashboardView {
  items: ReportListItem[];
  total: number;
  state: ListState;
  ignored: string[];
  form: { values: Record<string, string>; error: string | null };
  /** A viewer of a team's workspace: no analyse form, no links to manage a report. */
  readOnly?: boolean;
}

/** The form that analyses a page (a report of the workspace). */
function analyseCard(csrf: string, view: DashboardView): SafeHtml {
  return html`<section class="card">
  <h2>Analyse a page</h2>
  ${view.form.error ? alert(view.form.error) : ""}
  <form method="post" action="/reports" novalidate data-busy="Analysing…">
    ${csrfField(csrf)}
    ${field({ name: "url", label: "Page URL", placeholder: "example.com/page (https:// is assumed)", type: "url", value: view.form.values.url ?? "", required: true, maxlength: 2048 })}
    <div class="form-row">
      <div><label for="privacy">Who can see the report page</label>
      <select id="privacy" name="privacy">${["1", "0", "2"].map((value) => option(value, privacyNames[Number(value)] as string, view.form.values.privacy ?? "1"))}</select></div>
      <div data-shown-when="privacy=2">${field({ name: "password", label: "Password (for Password privacy)", type: "password", autocomplete: "new-password", maxlength: 128 })}</div>
    </div>
    <div class="form-row">
      <div><label for="mode">How to read the page</label>
      <select id="mode" name="mode">${Object.entries(modeNames).map(([value, label]) => option(value, label, view.form.values.mode ?? "raw"))}</select></div>
      <div><label for="schedule">Analyse again</label>
      <select id="schedule" name="schedule">${Object.entries(scheduleNames).map(([value, label]) => option(value, label, view.form.values.schedule ?? "off"))}</select></div>
    </div>
    <p class="muted">A raw analysis takes a few seconds; a rendered one, in Chromium, takes longer (up to about half a minute).</p>
    <p><button type="submit">Analyse</button> <span class="muted" data-busy-note role="status" hidden></span></p>
  </form>
</section>`;
}

const privacyNames = ["Public", "Private", "Password"];
const scheduleNames: Record<string, string> = { off: "Off", daily: "Every day", weekly: "Every week" };
const modeNames: Record<string, string> = {
  raw: "Raw: the HTML as served",
  rendered: "Rendered: the page in a browser (Chromium)",
};

export function dashboardBody(csrf: string, view: DashboardView): SafeHtml {
  const { state } = view;
  return html`<h1>Reports</h1>
${view.readOnly ? html`<section class="card"><h2>Analyse a page</h2>${viewerNote("reports")}</section>` : analyseCard(csrf, view)}
<section class="card">
  <h2>Your reports</h2>
  ${ignoredNotice(view.ignored)}
  <form method="get" action="/reports" class="form-row" role="search">
    <div><label for="search">Search URLs</label><input id="search" name="search" value="${state.search}" maxlength="255"></div>
    <div><label for="project">Project</label><input id="project" name="project" value="${state.project}" maxlength="255"></div>
    <div><label for="result">Result</label><select id="result" name="result">${[
      ["", "Any"],
      ["good", "Good"],
      ["decent", "Decent"],
      ["bad", "Bad"],
    ].map(([value, label]) => option(value as string, label as string, state.result))}</select></div>
    <div><label for="sort_by">Sort by</label><select id="sort_by" name="sort_by">${[
      ["id", "Date created"],
      ["generated_at", "Date generated"],
      ["url", "URL"],
      ["result", "Result"],
    ].map(([value, label]) => option(value as string, label as string, state.sort_by))}</select></div>
    ${orderFields(state)}
    <div><button type="submit">Apply</button></div>
  </form>
  ${
    view.items.length === 0
      ? html`<p>No reports match.</p>`
      : stacked(html`<table>
    <thead><tr><th scope="col">URL</th><th scope="col">Result</th><th scope="col">Project</th><th scope="col">Privacy</th><th scope="col">Generated</th><th scope="col"><span class="muted">Actions</span></th></tr></thead>
    <tbody>${view.items.map(
      (item) => html`<tr>
      <td><a href="/reports/${item.id}">${item.url}</a></td>
      <td>${resultLabel(item)}${scoreChange(item.score_change)}</td>
      <td><a href="/reports?project=${encodeURIComponent(item.project)}">${item.project}</a></td>
      <td>${privacyNames[item.privacy]}</td>
      <td>${item.generated_at?.slice(0, 16).replace("T", " ") ?? ""}</td>
      <td>${view.readOnly ? "" : html`<a href="/reports/${item.id}/manage">Manage</a>`}</td>
    </tr>`,
    )}</tbody>
  </table>`)
  }
  ${paginationNav("/reports", { ...state }, view.total, "reports")}
</section>`;
}

export function manageBody(
  csrf: string,
  report: ReportListItem & {
    password: boolean;
    schedule: string;
    mode: string;
    next_run_at: string | null;
  },
  message: { error?: string; notice?: string } = {},
): SafeHtml {
  return html`<h1>Manage report</h1>
<p><a href="/reports/${report.id}">${report.url}</a> · ${resultLabel(report)}</p>
${message.notice ? notice(message.notice) : ""}
${message.error ? alert(message.error) : ""}
<section class="card">
  <h2>Run the analysis again</h2>
  <form method="post" action="/reports/${report.id}/rerun">${csrfField(csrf)}<button type="submit">Re-run</button></form>
</section>
<section class="card">
  <h2>Schedule and mode</h2>
  <form method="post" action="/reports/${report.id}/settings" novalidate>
    ${csrfField(csrf)}
    <div class="form-row">
      <div><label for="schedule">Analyse again</label>
      <select id="schedule" name="schedule">${Object.entries(scheduleNames).map(([value, label]) => option(value, label, report.schedule))}</select></div>
      <div><label for="mode">How to read the page</label>
      <select id="mode" name="mode">${Object.entries(modeNames).map(([value, label]) => option(value, label, report.mode))}</select></div>
    </div>
    ${report.next_run_at ? html`<p class="muted">Next scheduled analysis: ${report.next_run_at.slice(0, 16).replace("T", " ")} UTC</p>` : ""}
    <p><button type="submit">Save schedule and mode</button></p>
  </form>
</section>
<section class="card">
  <h2>Privacy</h2>
  <form method="post" action="/reports/${report.id}/privacy" novalidate>
    ${csrfField(csrf)}
    <label for="privacy">Who can see the report page</label>
    <select id="privacy" name="privacy">${["0", "1", "2"].map((value) => option(value, privacyNames[Number(value)] as string, String(report.privacy)))}</select>
    <div data-shown-when="privacy=2">${field({ name: "password", label: report.password ? "New password (leave empty to keep the current one)" : "Password (needed for Password privacy)", type: "password", autocomplete: "new-password", maxlength: 128 })}</div>
    <p><button type="submit">Save privacy</button></p>
  </form>
</section>
<section class="card">
  <h2>Delete</h2>
  <p><a href="/reports/${report.id}/delete">Delete this report…</a></p>
</section>`;
}

/** A URL that already has a report: run that one again, or make a second report on purpose. */
export function duplicateBody(csrf: string, existingId: number, values: Record<string, string>): SafeHtml {
  const hidden = (name: string) => html`<input type="hidden" name="${name}" value="${values[name] ?? ""}">`;
  return html`<section class="card">
  <h1>You already have a report for this page</h1>
  <p><a href="/reports/${existingId}">${values.url ?? ""}</a> has a report. Run its analysis again to see what changed (its history keeps every run), or make a second, separate report.</p>
  <form method="post" action="/reports/${existingId}/rerun" class="inline-form">${csrfField(csrf)}<button type="submit">Re-run the existing report</button></form>
  <form method="post" action="/reports" novalidate class="second-report">
    ${csrfField(csrf)}${hidden("url")}${hidden("privacy")}${hidden("mode")}${hidden("schedule")}<input type="hidden" name="duplicate" value="1">
    ${values.privacy === "2" ? field({ name: "password", label: "Password for the second report", type: "password", autocomplete: "new-password", required: true, maxlength: 128 }) : ""}
    <p><button type="submit" class="secondary">Create a second report</button> <a href="/reports">Cancel</a></p>
  </form>
</section>`;
}

/** What a password form opens: a report, or a crawl's audit. */
export interface PasswordDoor {
  /** "report", "audit": named in the heading and the button. */
  what: string;
  /** Where the form posts the password. */
  action: string;
}

export function passwordFormBody(csrf: string, door: PasswordDoor, error: string | null): SafeHtml {
  return html`<section class="card">
  <h1>This ${door.what} is protected</h1>
  <p>Enter the password you were given to see it.</p>
  ${error ? alert(error) : ""}
  <form method="post" action="${door.action}" novalidate>
    ${csrfField(csrf)}
    ${field({ name: "password", label: "Password", type: "password", autocomplete: "current-password", required: true })}
    <p><button type="submit">Open the ${door.what}</button></p>
  </form>
</section>`;
}
