/**
 * The account's webhooks: the list with a form to add one (its secret shown once, right after), and a webhook's
 * page with its deliveries and attempts, ping, enable/disable and delete.
 */

import { webhookEvents } from "../../webhooks/webhook-service.js";
import type { DeliveryRow, WebhookRow } from "../../webhooks/webhook-store.js";
import { html, type SafeHtml } from "../html.js";
import { alert, csrfField, field, notice, viewerNote } from "./forms.js";
import { stacked } from "./stacked-table.js";

export interface WebhookListView {
  webhooks: WebhookRow[];
  /** A new webhook's secret, shown once. */
  newSecret: string | null;
  flash: string | null;
  form: { url: string; events: string[]; error: string | null };
  /** A viewer of a team's workspace: no form to add a webhook. */
  readOnly?: boolean;
}

export function webhooksBody(csrf: string, view: WebhookListView): SafeHtml {
  return html`<h1>Webhooks</h1>
<p><a href="/account">Your account</a></p>
${view.flash ? notice(view.flash) : ""}
${
  view.newSecret
    ? html`<section class="card"><p class="notice" role="status">The webhook's signing secret is shown only this once. Copy it now:</p>
  <p><code class="key" id="webhook-secret">${view.newSecret}</code></p>
  <p class="muted">Each delivery carries <code>webhook-id</code>, <code>webhook-timestamp</code> and <code>webhook-signature</code> (Standard Webhooks): verify the signature with this secret.</p></section>`
    : ""
}
<section class="card">
  <h2>Your webhooks</h2>
  ${
    view.webhooks.length === 0
      ? html`<p>No webhooks yet.</p>`
      : stacked(html`<table>
    <thead><tr><th scope="col">URL</th><th scope="col">Events</th><th scope="col">State</th><th scope="col">Secret</th></tr></thead>
    <tbody>${view.webhooks.map(
      (webhook) => html`<tr>
      <td><a href="/account/webhooks/${webhook.id}">${webhook.url}</a></td>
      <td>${webhook.events.split(",").join(", ")}</td>
      <td>${webhook.enabled === 1 ? "Enabled" : "Disabled"}</td>
      <td><code>${webhook.secret_hint}</code></td>
    </tr>`,
    )}</tbody>
  </table>`)
  }
</section>
${view.readOnly ? html`<section class="card"><h2>Add a webhook</h2>${viewerNote("webhooks")}</section>` : addCard(csrf, view)}`;
}

/** The form that adds a webhook to the workspace. */
function addCard(csrf: string, view: WebhookListView): SafeHtml {
  return html`<section class="card">
  <h2>Add a webhook</h2>
  ${view.form.error ? alert(view.form.error) : ""}
  <form method="post" action="/account/webhooks" novalidate>
    ${csrfField(csrf)}
    ${field({ name: "url", label: "Receiver URL (http or https, public)", type: "url", value: view.form.url, required: true, maxlength: 2048 })}
    <fieldset><legend>Events</legend>
    ${webhookEvents.map(
      (event) =>
        html`<label><input type="checkbox" name="events" value="${event}"${view.form.events.includes(event) ? html` checked` : ""}> ${event}</label> `,
    )}
    </fieldset>
    <p><button type="submit">Add webhook</button></p>
  </form>
</section>`;
}

export function webhookBody(
  csrf: string,
  webhook: WebhookRow,
  deliveries: DeliveryRow[],
  flash: string | null,
  readOnly = false,
): SafeHtml {
  const action = (path: string, label: string, kind = "") =>
    html`<form method="post" action="/account/webhooks/${webhook.id}/${path}" class="inline">${csrfField(csrf)}<button type="submit"${kind ? html` class="${kind}"` : ""}>${label}</button></form>`;
  return html`<h1>Webhook</h1>
<p><a href="/account/webhooks">All webhooks</a></p>
${flash ? notice(flash) : ""}
<section class="card">
  <p><span class="key">${webhook.url}</span></p>
  <p class="muted">${webhook.enabled === 1 ? "Enabled" : "Disabled"} · events ${webhook.events.split(",").join(", ")} · secret <code>${webhook.secret_hint}</code></p>
  ${readOnly ? "" : html`<p>${action("ping", "Send a ping")} ${action("enabled", webhook.enabled === 1 ? "Disable" : "Enable")} <a href="/account/webhooks/${webhook.id}/delete">Delete…</a></p>`}
</section>
<section class="card">
  <h2>Deliveries</h2>
  ${
    deliveries.length === 0
      ? html`<p>No deliveries yet.</p>`
      : stacked(html`<table>
    <thead><tr><th scope="col">Event</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col">Last answer</th><th scope="col">Next attempt</th><th scope="col">Created</th></tr></thead>
    <tbody>${deliveries.map(
      (delivery) => html`<tr>
      <td>${delivery.event} <span class="muted">webhook-id ${String(delivery.id)}</span></td>
      <td>${delivery.status}</td>
      <td>${String(delivery.attempts)}</td>
      <td>${delivery.last_status_code !== null ? String(delivery.last_status_code) : ""} ${delivery.last_error ?? ""}</td>
      <td>${delivery.next_attempt_at?.slice(0, 19).replace("T", " ") ?? ""}</td>
      <td>${delivery.created_at.slice(0, 19).replace("T", " ")}</td>
    </tr>`,
    )}</tbody>
  </table>`)
  }
</section>`;
}
