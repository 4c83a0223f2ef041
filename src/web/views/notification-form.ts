/**
 * The project page's card for its crawl notification mails: when (`email_on`) and to whom, the addresses that
 * unsubscribed, the latest mails' delivery states (a failing mail server shows here), and a plain statement
 * when mail is not set up (the settings are still kept).
 */
import type {
  NotificationMailState,
  NotificationSettingsView,
} from "../../notifications/notification-settings.js";
import { html, type SafeHtml } from "../html.js";
import { alert, csrfField, notice } from "./forms.js";

const choices = [
  ["regressed", "When a crawl regressed"],
  ["completed", "After every complete crawl"],
  ["never", "Never"],
] as const;

export function notificationFormCard(
  csrf: string,
  settings: NotificationSettingsView,
  state: { error?: string; recipients?: string; saved?: boolean; mails?: NotificationMailState[] } = {},
): SafeHtml {
  const mails = state.mails ?? [];
  const action = `/projects/${encodeURIComponent(settings.project)}/notifications`;
  const recipients = state.recipients ?? settings.recipients.join(", ");
  return html`<section class="card" id="notifications">
  <h2>E-mail after a crawl</h2>
  ${settings.message ? alert(settings.message) : ""}
  ${state.saved ? notice("Saved.") : ""}
  <form method="post" action="${action}" novalidate>
    ${csrfField(csrf)}
    <label for="email_on">Send a mail</label>
    <select id="email_on" name="email_on">${choices.map(
      ([value, label]) =>
        html`<option value="${value}"${value === settings.email_on ? html` selected` : ""}>${label}</option>`,
    )}</select>
    <label for="recipients">To (e-mail addresses of this workspace's members, separated by commas; at most 20)</label>
    <input id="recipients" name="recipients" type="text" value="${recipients}" maxlength="6000"${state.error ? html` aria-invalid="true" aria-describedby="recipients-error"` : ""}>
    ${state.error ? html`<p class="error" id="recipients-error">${state.error}</p>` : ""}
    ${settings.unsubscribed.length > 0 ? html`<p>Unsubscribed: ${settings.unsubscribed.join(", ")}</p>` : ""}
    <p><button type="submit">Save</button></p>
  </form>
  ${
    mails.length > 0
      ? html`<h3>Latest mails</h3>
  <ul class="notification-mails">${mails.map(
    (mail) =>
      html`<li>${mail.recipient}: ${mail.status}${mail.sent_at ? html` (${mail.sent_at})` : ""}${mail.last_error ? html` — ${mail.last_error}` : ""}</li>`,
  )}</ul>`
      : ""
  }
</section>`;
}
