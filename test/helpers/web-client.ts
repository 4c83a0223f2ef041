/**
 * A minimal client for the web pages over inject(): keeps cookies like a browser and fills in the CSRF field
 * from the pg_csrf cookie (with the chosen team after a dot, as the pages draw it, once pg_workspace names one), so
 * page tests read as "get this page, submit that form".
 */
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import { multipartBody } from "./multipart.js";

export class WebClient {
  readonly cookies = new Map<string, string>();

  /** `remoteAddress` stands for the client's address (limits count per address). */
  constructor(
    private readonly app: FastifyInstance,
    private readonly remoteAddress = "127.0.0.1",
  ) {}

  async get(url: string): Promise<LightMyRequestResponse> {
    return this.send("GET", url);
  }

  /** Submits a form; the CSRF token is added unless the fields say otherwise. */
  async post(url: string, fields: Record<string, string> = {}): Promise<LightMyRequestResponse> {
    if (!this.cookies.has("pg_csrf")) await this.get("/");
    const body = new URLSearchParams({ _csrf: this.formToken(), ...fields });
    return this.send("POST", url, body.toString());
  }

  /**
   * Signs up through the form and follows its redirect to the account page, as a browser does; the answer must
   * be the redirect (POST/redirect/GET), so a refresh cannot post the form again.
   */
  async signUp(email: string, password = "correct horse battery"): Promise<LightMyRequestResponse> {
    const answer = await this.post("/register", { email, password });
    if (answer.statusCode !== 303 || answer.headers.location !== "/account")
      throw new Error(
        `sign-up answered ${answer.statusCode} ${String(answer.headers.location)}: ${answer.body}`,
      );
    return this.get("/account");
  }

  /** Makes an API key with the account page's button; the key is read from that POST's answer, shown once. */
  async createApiKey(): Promise<string> {
    const answer = await this.post("/account/key");
    const key = /id="new-api-key">(pgk_[A-Za-z0-9_-]{43})</.exec(answer.body)?.[1];
    if (answer.statusCode !== 200 || !key) throw new Error(`no new key in the answer (${answer.statusCode})`);
    return key;
  }

  /** Submits a multipart form (as a browser does for a form with a file input), with the CSRF token. */
  async postMultipart(
    url: string,
    fields: Record<string, string>,
    files: Record<string, { name: string; type: string; content: string | Buffer }> = {},
  ): Promise<LightMyRequestResponse> {
    if (!this.cookies.has("pg_csrf")) await this.get("/");
    const { payload, contentType } = multipartBody({ _csrf: this.formToken(), ...fields }, files);
    return this.send("POST", url, payload, contentType);
  }

  /** The token the pages' forms echo: the CSRF cookie's, and the chosen team's id after a dot. */
  formToken(): string {
    const team = this.cookies.get("pg_workspace");
    return `${this.cookies.get("pg_csrf") ?? ""}${team ? `.${team}` : ""}`;
  }

  private async send(
    method: "GET" | "POST",
    url: string,
    payload?: string | Buffer,
    contentType = "application/x-www-form-urlencoded",
  ): Promise<LightMyRequestResponse> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    const response = await this.app.inject({
      method,
      url,
      remoteAddress: this.remoteAddress,
      headers: {
        ...(cookie ? { cookie } : {}),
        ...(payload !== undefined ? { "content-type": contentType } : {}),
      },
      ...(payload !== undefined ? { payload } : {}),
    });
    for (const set of response.cookies as Array<{
      name: string;
      value: string;
      maxAge?: number;
      expires?: Date;
    }>) {
      const expired =
        set.maxAge === 0 ||
        (set.expires !== undefined && set.expires.getTime() < Date.now()) ||
        set.value === "";
      if (expired) this.cookies.delete(set.name);
      else this.cookies.set(set.name, set.value);
    }
    return response;
  }
}
