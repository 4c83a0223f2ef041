/**
 * /api/v1/projects/{project}/notifications: a project's crawl notification settings (src/notifications/) in the
 * request's workspace (its own or `team={id}`'s), shown to every member of it and changed by those who may write
 * (a team's viewer: 403). The project is loaded through the
 * access seam (404 for one the workspace does not have). Without mail set up the settings are still stored;
 * the answer's `mail_set_up` and `message` say that nothing will be sent.
 */
import type { FastifyInstance } from "fastify";
import type {
  NotificationSettings,
  NotificationSettingsChange,
  NotificationSettingsView,
} from "../../../../notifications/notification-settings.js";
import type { ApiAccess } from "../access.js";
import { showNotifications, updateNotifications } from "./notification-schema.js";

interface Params {
  project: string;
}

const answer = (settings: NotificationSettingsView) => ({
  data: { object: "notification_settings" as const, ...settings },
  status: 200 as const,
});

export async function notificationRoutes(
  app: FastifyInstance,
  { access, notifications }: { access: ApiAccess; notifications: NotificationSettings },
): Promise<void> {
  app.get<{ Params: Params }>(
    "/projects/:project/notifications",
    { schema: showNotifications },
    async (request) => {
      const project = await access.project(request);
      return answer(await notifications.show(await access.workspace(request), project.project));
    },
  );

  app.put<{ Params: Params; Body: NotificationSettingsChange }>(
    "/projects/:project/notifications",
    { schema: updateNotifications },
    async (request) => {
      const project = await access.project(request, "write");
      const workspace = await access.workspace(request, "write");
      return answer(await notifications.update(workspace, project.project, request.body));
    },
  );
}
