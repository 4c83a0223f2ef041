/**
 * Password reset on the web with a real SMTP server in this process, on SQLite and PostgreSQL: the mail arrives
 * with both parts and a link that works when followed (the new password signs in, the old one and every old
 * session are refused, the link works once and not after its hour); an unknown address gets the same answer and
 * no mail; requests are limited per address; a mail server that answers late delays no request; without the
 * mail settings the page says mail is not set up. And the operator's `pagegrade user reset-password`.
 */
import { spawnSync } from "node:child_process";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PasswordResetStore } from "../../src/accounts/password-reset-store.js";
import { databaseKinds, startApi, type TestApi } from "../helpers/api.js";
import { eventually } from "../helpers/job-queues.js";
import { startTestSmtp, type TestSmtp } from "../helpers/smtp.js";
import { WebClient } from "../helpers/web-client.js";

const bin = new URL("../../bin/pagegrade.js", import.meta.url).pathname;

const mailSettings = (smtp: TestSmtp) => ({
  PAGEGRADE_SMTP_URL: smtp.url,
  PAGEGRADE_MAIL_FROM: "pagegrade@example.com",
  PAGEGRADE_PUBLIC_URL: "https://pagegrade.test/",
  PAGEGRADE_SMTP_TIMEOUT_SECONDS: "1",
  PAGEGRADE_MAIL_RETRY_SCHEDULE: "1,1,1,1",
});

const linkIn = (text: string) =>
  /https:\/\/pagegrade\.test(\/reset-password\?token=[A-Za-z0-9_-]+)/.exec(text)?.[1];

describe.each(databaseKinds)("password reset by e-mail (%s)", (kind) => {
  let smtp: TestSmtp;
  let api: TestApi;
  const email = "forgetful@example.com";

  beforeEach(async () => {
    smtp = await startTestSmtp();
    api = await startApi(kind, mailSettings(smtp));
    await api.accounts.createUser(email, "old password 1");
  });
  afterEach(async () => {
    await api.close();
    await smtp.close();
  });

  const mailCount = async () =>
    (await api.database.store.db.selectFrom("mail_messages").select("id").execute()).length;

  it("mails a link that sets a new password once, ends every old session and signs in", async () => {
    const oldSession = new WebClient(api.app, "10.0.0.1");
    expect((await oldSession.post("/login", { email, password: "old password 1" })).statusCode).toBe(303);
    expect((await oldSession.get("/account")).statusCode).toBe(200);

    const visitor = new WebClient(api.app, "10.0.0.2");
    expect((await visitor.get("/login")).body).toContain('href="/forgot-password"');
    expect((await visitor.get("/forgot-password")).body).toContain('action="/forgot-password"');
    const asked = await visitor.post("/forgot-password", { email: "Forgetful@Example.com" });
    expect(asked.statusCode).toBe(200);
    expect(asked.body).toContain("Check your inbox");

    await eventually(() => smtp.received.length === 1, "the reset mail", 15_000);
    const mail = smtp.received[0];
    expect(mail?.subject).toBe("Reset your pagegrade password");
    expect(mail?.from?.text).toBe("pagegrade@example.com");
    expect((mail?.to as { text: string } | undefined)?.text).toBe(email);
    expect(mail?.messageId).toMatch(/^<[0-9a-f]{32}@example\.com>$/);
    const path = linkIn(mail?.text ?? "");
    expect(path).toBeDefined();
    expect(mail?.html).toContain(`href="https://pagegrade.test${path}"`);
    // Only the token's digest is stored.
    const token = String(path?.split("token=")[1]);
    const stored = await api.database.store.db.selectFrom("password_resets").selectAll().execute();
    expect(stored).toHaveLength(1);
    expect(stored[0]?.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(token);

    const form = await visitor.get(String(path));
    expect(form.statusCode).toBe(200);
    expect(form.body).toContain("Choose a new password");
    const tooShort = await visitor.post("/reset-password", { token, password: "short" });
    expect(tooShort.statusCode).toBe(422);
    expect(tooShort.body).toContain("at least 8 characters");
    const reset = await visitor.post("/reset-password", { token, password: "new password 2" });
    expect(reset.statusCode).toBe(303);
    expect(reset.headers.location).toBe("/account");
    expect((await visitor.get("/account")).statusCode).toBe(200);

    // Every session from before is over; the old password no longer signs in, the new one does.
    const refused = await oldSession.get("/account");
    expect(refused.statusCode).toBe(303);
    expect(refused.headers.location).toBe("/login");
    expect(
      (await new WebClient(api.app, "10.0.0.3").post("/login", { email, password: "old password 1" }))
        .statusCode,
    ).toBe(401);
    const fresh = await new WebClient(api.app, "10.0.0.4").post("/login", {
      email,
      password: "new password 2",
    });
    expect(fresh.statusCode).toBe(303);
    expect(fresh.headers.location).toBe("/reports");

    // The link works once.
    expect((await visitor.get(String(path))).statusCode).toBe(410);
    const again = await new WebClient(api.app, "10.0.0.5").post("/reset-password", {
      token,
      password: "third password 3",
    });
    expect(again.statusCode).toBe(410);
    expect(again.body).toContain("not valid");
    expect(
      (await new WebClient(api.app, "10.0.0.6").post("/login", { email, password: "new password 2" }))
        .statusCode,
    ).toBe(303);
  });

  it("refuses a link after its hour", async () => {
    const visitor = new WebClient(api.app);
    await visitor.post("/forgot-password", { email });
    await eventually(() => smtp.received.length === 1, "the reset mail", 15_000);
    const path = String(linkIn(smtp.received[0]?.text ?? ""));
    await api.database.store.db
      .updateTable("password_resets")
      .set({ expires_at: Math.floor(Date.now() / 1000) - 1 })
      .execute();
    expect((await visitor.get(path)).statusCode).toBe(410);
    const used = await visitor.post("/reset-password", {
      token: String(path.split("token=")[1]),
      password: "new password 2",
    });
    expect(used.statusCode).toBe(410);
    // The maintenance job's sweep removes the expired link.
    await new PasswordResetStore(api.database.store).sweep(Math.floor(Date.now() / 1000));
    expect(await api.database.store.db.selectFrom("password_resets").select("digest").execute()).toEqual([]);
    expect(
      (await new WebClient(api.app, "10.0.0.9").post("/login", { email, password: "old password 1" }))
        .statusCode,
    ).toBe(303);
  });

  it("answers an unknown address the same, and mails nothing", async () => {
    const visitor = new WebClient(api.app);
    const unknown = await visitor.post("/forgot-password", { email: "nobody@example.com" });
    const known = await visitor.post("/forgot-password", { email });
    expect(unknown.statusCode).toBe(known.statusCode);
    expect(unknown.body.replace("nobody@example.com", email)).toBe(known.body);
    // The jobs run in order: once the known address's mail is there, the unknown one's job has run too.
    await eventually(() => smtp.received.length === 1, "the reset mail", 15_000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]?.to).toMatchObject({ text: email });
    expect(await mailCount()).toBe(1);
  });

  it("limits requests per address, and per client", async () => {
    const client = new WebClient(api.app, "10.1.0.1");
    for (let index = 0; index < 5; index++) {
      expect((await client.post("/forgot-password", { email })).statusCode).toBe(200);
    }
    const limited = await client.post("/forgot-password", { email });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers["retry-after"]).toBeDefined();
    // Another client asking for the same address is limited too; another address from a fresh client is not.
    expect((await new WebClient(api.app, "10.1.0.2").post("/forgot-password", { email })).statusCode).toBe(
      429,
    );
    const other = new WebClient(api.app, "10.1.0.3");
    for (let index = 0; index < 5; index++) {
      expect(
        (await other.post("/forgot-password", { email: `someone${index}@example.com` })).statusCode,
      ).toBe(200);
    }
    expect((await other.post("/forgot-password", { email: "someone9@example.com" })).statusCode).toBe(429);
  });

  it("answers at once while the mail server is too slow to answer", async () => {
    smtp.mode = "slow";
    smtp.slowMs = 5_000;
    const visitor = new WebClient(api.app);
    const started = Date.now();
    const asked = await visitor.post("/forgot-password", { email });
    expect(asked.statusCode).toBe(200);
    expect(Date.now() - started).toBeLessThan(1_000);
    // The mail's attempt times out in the job and is retried; the page and sign-in go on meanwhile.
    await eventually(
      async () =>
        (await api.database.store.db.selectFrom("mail_messages").select("last_error").executeTakeFirst())
          ?.last_error != null,
      "the first attempt to time out",
      15_000,
    );
    const quick = Date.now();
    expect(
      (await new WebClient(api.app, "10.2.0.1").post("/login", { email, password: "old password 1" }))
        .statusCode,
    ).toBe(303);
    expect(Date.now() - quick).toBeLessThan(1_000);
    smtp.mode = "accept";
    await eventually(() => smtp.received.length === 1, "the retried mail", 15_000);
  });
});

describe("password reset without mail set up", () => {
  let api: TestApi;
  beforeEach(async () => {
    api = await startApi("sqlite");
  });
  afterEach(async () => {
    await api.close();
  });

  it("says mail is not set up and points to the operator's command", async () => {
    const visitor = new WebClient(api.app);
    const page = await visitor.get("/forgot-password");
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain("Mail is not set up on this server");
    expect(page.body).toContain("pagegrade user reset-password");
    const asked = await visitor.post("/forgot-password", { email: "someone@example.com" });
    expect(asked.statusCode).toBe(503);
    expect(asked.body).toContain("Mail is not set up on this server");
    expect((await api.database.store.db.selectFrom("mail_messages").select("id").execute()).length).toBe(0);
  });
});

describe("pagegrade user reset-password", () => {
  it("sets a generated password, or one read from stdin, and ends the user's sessions", async () => {
    const api = await startApi("sqlite");
    try {
      await api.accounts.createUser("operator-reset@example.com", "old password 1");
      const session = new WebClient(api.app);
      await session.post("/login", { email: "operator-reset@example.com", password: "old password 1" });
      expect((await session.get("/account")).statusCode).toBe(200);
      const env = { ...process.env, DATABASE_URL: api.database.url };
      const run = (args: string[], input = "") =>
        spawnSync(process.execPath, [bin, "user", "reset-password", ...args], {
          env,
          input,
          encoding: "utf8",
        });
      const generated = run(["--email", "Operator-Reset@example.com"]);
      expect(generated.status).toBe(0);
      const password = generated.stdout.trim().split("\n").pop() as string;
      expect(password).toMatch(/^[A-Za-z0-9_-]{24}$/);
      expect((await session.get("/account")).statusCode).toBe(303);
      const login = (secret: string) =>
        new WebClient(api.app, "10.3.0.1").post("/login", {
          email: "operator-reset@example.com",
          password: secret,
        });
      expect((await login(password)).statusCode).toBe(303);

      const piped = run(["--email", "operator-reset@example.com", "--password-stdin"], "typed password 9\n");
      expect(piped.status).toBe(0);
      expect(piped.stdout).not.toContain("typed password 9");
      expect((await login("typed password 9")).statusCode).toBe(303);
      expect(run(["--email", "operator-reset@example.com", "--password-stdin"], "short\n").status).toBe(1);
      const unknown = run(["--email", "nobody@example.com"]);
      expect(unknown.status).toBe(1);
      expect(unknown.stderr).toContain("no user has the e-mail nobody@example.com");
    } finally {
      await api.close();
    }
  });
});
