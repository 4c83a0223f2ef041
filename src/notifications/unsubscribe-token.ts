/**
 * The token of a notification mail's unsubscribe link: whose workspace (the owner id, and the team for a team's;
 * a token made before teams had notifications names no team and stays valid), which project and which recipient, signed with an HMAC-SHA256 under a secret shared by every instance (store/secrets.ts). Nothing is
 * stored per token; one token unsubscribes one recipient from one project and nothing else. `read` answers
 * null for anything not signed here (checked in constant time).
 */
import { createHmac, timingSafeEqual } from "node:crypto";

export interface UnsubscribeSubject {
  ownerId: number;
  /** The team whose workspace the project is in; null for the owner's own. */
  teamId: number | null;
  project: string;
  recipient: string;
}

export class UnsubscribeTokens {
  private secret: Promise<string> | undefined;

  /** `secret` is read once, when a token is first made or read. */
  constructor(private readonly loadSecret: () => Promise<string>) {}

  async sign(subject: UnsubscribeSubject): Promise<string> {
    const payload = Buffer.from(
      JSON.stringify(
        subject.teamId === null
          ? [subject.ownerId, subject.project, subject.recipient]
          : [subject.ownerId, subject.project, subject.recipient, subject.teamId],
      ),
    ).toString("base64url");
    return `${payload}.${await this.mac(payload)}`;
  }

  async read(token: string): Promise<UnsubscribeSubject | null> {
    const [payload, mac, ...rest] = token.split(".");
    if (!payload || !mac || rest.length > 0 || token.length > 2000) return null;
    const expected = Buffer.from(await this.mac(payload));
    const given = Buffer.from(mac);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
    try {
      const [ownerId, project, recipient, teamId = null, ...more] = JSON.parse(
        Buffer.from(payload, "base64url").toString("utf8"),
      );
      if (typeof ownerId !== "number" || typeof project !== "string" || typeof recipient !== "string") {
        return null;
      }
      if ((teamId !== null && typeof teamId !== "number") || more.length > 0) return null;
      return { ownerId, teamId, project, recipient };
    } catch {
      return null;
    }
  }

  private async mac(payload: string): Promise<string> {
    this.secret ??= this.loadSecret();
    return createHmac("sha256", await this.secret)
      .update(`unsubscribe:${payload}`)
      .digest("base64url");
  }
}
