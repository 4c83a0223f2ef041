/**
 * Small pieces of form markup shared by the pages: the CSRF field, text inputs with their error, options, notices,
 * and the confirmation step before a dangerous action.
 */
import { type HtmlValue, html, type SafeHtml } from "../html.js";

export function csrfField(token: string): SafeHtml {
  return html`<input type="hidden" name="_csrf" value="${token}">`;
}

/** What a viewer of a team's workspace sees instead of a form that would change it. */
export function viewerNote(what: string): SafeHtml {
  return html`<p class="muted viewer-note">You are a viewer in this team: you can see its ${what}, not change them.</p>`;
}

/** An option of a select, selected when its value is `selected`. */
export function option(value: string, label: string, selected: string): SafeHtml {
  return html`<option value="${value}"${value === selected ? html` selected` : ""}>${label}</option>`;
}

export interface FieldOptions {
  name: string;
  label: string;
  type?: string;
  value?: string;
  error?: string | undefined;
  autocomplete?: string;
  required?: boolean;
  maxlength?: number;
  placeholder?: string;
}

/** A labelled input; the error is tied to it with aria-describedby. */
export function field({
  name,
  label,
  type = "text",
  value,
  error,
  autocomplete,
  required,
  maxlength,
  placeholder,
}: FieldOptions): SafeHtml {
  const errorId = `${name}-error`;
  return html`<label for="${name}">${label}</label>
<input id="${name}" name="${name}" type="${type}"${value !== undefined ? html` value="${value}"` : ""}${autocomplete ? html` autocomplete="${autocomplete}"` : ""}${required ? html` required` : ""}${maxlength ? html` maxlength="${maxlength}"` : ""}${placeholder ? html` placeholder="${placeholder}"` : ""}${error ? html` aria-invalid="true" aria-describedby="${errorId}"` : ""}>
${error ? html`<p class="error" id="${errorId}">${error}</p>` : ""}`;
}

export function notice(message: HtmlValue): SafeHtml {
  return html`<p class="notice" role="status">${message}</p>`;
}

export function alert(message: HtmlValue): SafeHtml {
  return html`<p class="alert" role="alert">${message}</p>`;
}

/** The step before a dangerous action: the question, what it means, the action's button and a way back. */
export function confirmBody(
  csrf: string,
  question: string,
  action: string,
  cancel: string,
  { consequence = "This cannot be undone.", button = "Yes, delete" } = {},
): SafeHtml {
  return html`<section class="card">
  <h1>${question}</h1>
  <p>${consequence}</p>
  <form method="post" action="${action}">${csrfField(csrf)}<button type="submit" class="danger">${button}</button> <a href="${cancel}">Cancel</a></form>
</section>`;
}
