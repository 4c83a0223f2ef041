/**
 * The mail settings (src/config.ts): all three or none; each checked with a message that names it and never
 * shows the SMTP password; the service's log names the mail server without its password.
 */
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { ConfigError, defaultMailRetrySchedule, loadServiceConfig } from "../../src/config.js";
import { startApi } from "../helpers/api.js";

const valid = {
  PAGEGRADE_SMTP_URL: "smtps://mailer:hunter2secret@mail.example.com:465",
  PAGEGRADE_MAIL_FROM: "pagegrade@example.com",
  PAGEGRADE_PUBLIC_URL: "https://pagegrade.example.com/",
};

const failure = (env: Record<string, string>): string => {
  try {
    loadServiceConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error("no ConfigError");
};

describe("the mail settings", () => {
  it("are off when none is set, and read when all three are", () => {
    expect(loadServiceConfig({}).mail).toBeNull();
    expect(loadServiceConfig(valid).mail).toEqual({
      smtpUrl: valid.PAGEGRADE_SMTP_URL,
      from: "pagegrade@example.com",
      publicUrl: "https://pagegrade.example.com",
      timeoutSeconds: 30,
      retrySchedule: defaultMailRetrySchedule,
    });
    // 5 attempts within the hour.
    expect(defaultMailRetrySchedule).toHaveLength(4);
    expect(defaultMailRetrySchedule.reduce((sum, delay) => sum + delay, 0)).toBeLessThan(3600);
  });

  it("refuses one alone, or a malformed one, naming it and hiding the password", () => {
    expect(failure({ PAGEGRADE_SMTP_URL: valid.PAGEGRADE_SMTP_URL })).toMatch(/together/);
    const badScheme = failure({
      ...valid,
      PAGEGRADE_SMTP_URL: "http://mailer:hunter2secret@mail.example.com",
    });
    expect(badScheme).toMatch(/^PAGEGRADE_SMTP_URL must look like smtp:\/\//);
    expect(badScheme).toContain("http://mailer:***@mail.example.com");
    expect(badScheme).not.toContain("hunter2secret");
    expect(failure({ ...valid, PAGEGRADE_SMTP_URL: "smtp://mailer:hunter2secret@" })).not.toContain(
      "hunter2secret",
    );
    expect(failure({ ...valid, PAGEGRADE_MAIL_FROM: "Pagegrade <pagegrade@example.com>" })).toMatch(
      /^PAGEGRADE_MAIL_FROM must be an e-mail address/,
    );
    expect(failure({ ...valid, PAGEGRADE_MAIL_FROM: "a@example.com\r\nBcc: b@example.com" })).toMatch(
      /^PAGEGRADE_MAIL_FROM/,
    );
    for (const url of [
      "pagegrade.example.com",
      "ftp://example.com",
      "https://example.com/?a=1",
      "javascript:x",
    ]) {
      expect(failure({ ...valid, PAGEGRADE_PUBLIC_URL: url })).toMatch(
        /^PAGEGRADE_PUBLIC_URL must be an absolute/,
      );
    }
    expect(failure({ ...valid, PAGEGRADE_MAIL_RETRY_SCHEDULE: "1,x" })).toMatch(
      /^PAGEGRADE_MAIL_RETRY_SCHEDULE/,
    );
    expect(failure({ ...valid, PAGEGRADE_SMTP_TIMEOUT_SECONDS: "0" })).toMatch(
      /^PAGEGRADE_SMTP_TIMEOUT_SECONDS/,
    );
  });

  it("are logged at start without the SMTP password", async () => {
    let log = "";
    const logStream = new Writable({
      write(chunk, _encoding, done) {
        log += String(chunk);
        done();
      },
    });
    const api = await startApi("sqlite", valid, { logStream });
    await api.close();
    expect(log).toContain("mail is set up");
    expect(log).toContain("smtps://mailer:***@mail.example.com:465");
    expect(log).not.toContain("hunter2secret");
  });
});
