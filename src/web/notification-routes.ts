/**
 * POST /projects/{project}/notifications (signed-in): the project page's notification form. The project is
 * loaded through the access seam (web-access.ts) for a write; a refused value shows the form again with its
 * message and the domain error's status; a saved one returns to the project page's card.
 */
import type { FastifyInstance } from "fastify";
import { ValidationFailed } from "../errors.js";
import type { NotificationSettings } from "../notifications/notification-settings.js";
import { html } from "./html.js";
import { seeOther, sendHtml } from "./render.js";
import { notificationFormCard } from "./views/notification-form.js";
import type { WebAccess } from "./web-access.js";

export async function notificationRoutes(
  app: FastifyInstance,
  { notifications, resources }: { notifications: NotificationSettings; resources: WebAccess },
): Promise<void> {
  app.post<{ Params: { project: string }; Body: Record<string, string | undefined> }>(
    "/projects/:project/notifications",
    async (request, reply) => {
      const project = (await resources.project(request, "write")).project;
      const workspace = await resources.workspace(request, "write");
      const recipients = request.body.recipients ?? "";
      try {
        await notifications.update(workspace, project, { email_on: request.body.email_on ?? "", recipients });
        return seeOther(reply, `/projects/${encodeURIComponent(project)}?notifications=saved#notifications`);
      } catch (error) {
        if (!(error instanceof ValidationFailed)) throw error;
        const settings = await notifications.show(workspace, project);
        const card = notificationFormCard(request.csrfToken, settings, { error: error.message, recipients });
        return sendHtml(request, reply, project, html`<h1>${project}</h1>${card}`, error.status);
      }
    },
  );
}
