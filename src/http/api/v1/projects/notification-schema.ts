/** Request and response schemas of /api/v1/projects/{project}/notifications. */
import { Type } from "typebox";
import { maxRecipients, notificationTriggers } from "../../../../notifications/notification-settings.js";
import { errorResponses, refTo, stringEnum } from "../common-schema.js";

export const NotificationSettings = Type.Object(
  {
    object: Type.Literal("notification_settings"),
    project: Type.String(),
    email_on: stringEnum([...notificationTriggers], "When a crawl of the project sends a mail"),
    recipients: Type.Array(Type.String(), { description: "Who gets the mails (default: the owner)" }),
    default: Type.Boolean({ description: "Whether these are the defaults, never saved" }),
    unsubscribed: Type.Array(Type.String(), {
      description:
        "Addresses that followed a mail's unsubscribe link; they get no more of this project's mails",
    }),
    mail_set_up: Type.Boolean({ description: "Whether this server can send mail at all" }),
    message: Type.Union([Type.String(), Type.Null()], {
      description: "Why nothing will be sent, when mail is not set up",
    }),
  },
  { $id: "NotificationSettings", title: "NotificationSettings" },
);

const params = Type.Object({ project: Type.String({ minLength: 1, maxLength: 255 }) });
const answer = Type.Object({ data: refTo(NotificationSettings), status: Type.Literal(200) });

export const showNotifications = {
  summary: "Show a project's crawl notification settings",
  tags: ["projects"],
  params,
  response: { 200: answer, ...errorResponses(404) },
};

export const updateNotifications = {
  summary: "Set when a crawl of the project is mailed, and to whom",
  tags: ["projects"],
  params,
  body: Type.Object({
    email_on: Type.Optional(stringEnum([...notificationTriggers], "regressed, completed or never")),
    recipients: Type.Optional(
      Type.Union(
        [
          Type.Array(Type.String({ maxLength: 254 }), { maxItems: maxRecipients }),
          Type.String({ maxLength: 6000 }),
        ],
        {
          description: `Members' e-mail addresses (a list, or one string separated by commas), at most ${maxRecipients}: in one's own workspace one's own, in a team's its members'`,
        },
      ),
    ),
  }),
  response: { 200: answer, ...errorResponses(404, 413, 415, 422) },
};
