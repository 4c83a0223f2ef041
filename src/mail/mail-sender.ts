/**
 * Sends one mail through the operator's SMTP server with nodemailer (PAGEGRADE_SMTP_URL). Every step has a
 * deadline: PAGEGRADE_SMTP_TIMEOUT_SECONDS to connect, to be greeted and for each answer, and three times that
 * for the whole exchange, so a server that answers late, or not at all, holds only the one mail job sending
 * through it. Local files and URLs are never read into a mail. Never throws for anything the server or the
 * network does: the outcome says whether it was sent, and whether trying again could help (an SMTP 5xx answer
 * is final; a 4xx answer, a refused connection or a timeout is worth another attempt).
 */
import { createTransport } from "nodemailer";
import type { MailSettings } from "../config.js";

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  messageId: string;
  /** Extra headers, their values already free of CR and LF (mail-message.ts). */
  headers: Record<string, string>;
}

export type SendOutcome = { sent: true } | { sent: false; error: string; final: boolean };

export interface MailSender {
  send(mail: OutgoingMail, signal: AbortSignal): Promise<SendOutcome>;
}

export class SmtpSender implements MailSender {
  constructor(private readonly settings: MailSettings) {}

  async send(mail: OutgoingMail, signal: AbortSignal): Promise<SendOutcome> {
    const url = new URL(this.settings.smtpUrl);
    const secure = url.protocol === "smtps:";
    const timeoutMs = this.settings.timeoutSeconds * 1000;
    const transport = createTransport({
      host: url.hostname.replace(/^\[|\]$/g, ""),
      port: url.port ? Number(url.port) : secure ? 465 : 587,
      secure,
      ...(url.username
        ? { auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } }
        : {}),
      connectionTimeout: timeoutMs,
      greetingTimeout: timeoutMs,
      socketTimeout: timeoutMs,
      disableFileAccess: true,
      disableUrlAccess: true,
    });
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const stopped = new Promise<SendOutcome>((resolve) => {
      timer = setTimeout(
        () =>
          resolve({
            sent: false,
            error: `The mail server did not finish within ${(3 * timeoutMs) / 1000} s.`,
            final: false,
          }),
        3 * timeoutMs,
      );
      onAbort = () => resolve({ sent: false, error: "The attempt was interrupted.", final: false });
      signal.addEventListener("abort", onAbort, { once: true });
    });
    try {
      const sending = transport
        .sendMail({
          from: this.settings.from,
          // The recipient as one address and the envelope spelled out: nothing in the value is parsed into
          // another recipient (composeMail accepts only plain addresses anyway).
          to: { name: "", address: mail.to },
          envelope: { from: this.settings.from, to: [mail.to] },
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          messageId: mail.messageId,
          headers: mail.headers,
        })
        .then((): SendOutcome => ({ sent: true }))
        .catch((error: unknown): SendOutcome => failure(error, timeoutMs));
      return await Promise.race([sending, stopped]);
    } finally {
      clearTimeout(timer);
      if (onAbort) signal.removeEventListener("abort", onAbort);
      transport.close();
    }
  }
}

/** What went wrong, in words for the outbox's `last_error` (never the SMTP URL or its password). */
function failure(error: unknown, timeoutMs: number): SendOutcome {
  const { responseCode, code } = error as { responseCode?: unknown; code?: unknown };
  if (typeof responseCode === "number") {
    return {
      sent: false,
      error: `The mail server answered ${responseCode}.`,
      final: responseCode >= 500 && responseCode <= 599,
    };
  }
  if (code === "ETIMEDOUT")
    return {
      sent: false,
      error: `The mail server did not answer within ${timeoutMs / 1000} s.`,
      final: false,
    };
  return { sent: false, error: "A connection to the mail server could not be established.", final: false };
}
