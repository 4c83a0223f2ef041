/**
 * A real SMTP server in the test's process (smtp-server), behind a TCP relay that records every byte the client
 * sends, so tests can read both what arrived (parsed with mailparser: headers, text and HTML parts) and the raw
 * conversation. `mode` decides how the server answers the message: accept it, refuse it for good (550), refuse
 * it for now (451), or answer only after `slowMs`.
 */
import { createServer, type Server, Socket } from "node:net";
import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export type SmtpMode = "accept" | "refuse" | "refuse-for-now" | "slow";

export interface TestSmtp {
  /** The relay's URL, for PAGEGRADE_SMTP_URL. */
  url: string;
  mode: SmtpMode;
  slowMs: number;
  /** The mails accepted, parsed. */
  received: ParsedMail[];
  /** Messages (DATA) the server was handed, accepted or not. */
  attempts: number;
  /** Everything clients sent, as text (commands and messages). */
  conversation(): string;
  close(): Promise<void>;
}

export async function startTestSmtp(): Promise<TestSmtp> {
  const sent: Buffer[] = [];
  const state: TestSmtp = {
    url: "",
    mode: "accept",
    slowMs: 0,
    received: [],
    attempts: 0,
    conversation: () => Buffer.concat(sent).toString("latin1"),
    close: async () => {},
  };
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onAuth(_auth, _session, callback) {
      callback(null, { user: "test" });
    },
    onData(stream, _session, callback) {
      state.attempts++;
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", async () => {
        if (state.mode === "refuse") {
          return callback(Object.assign(new Error("Mailbox unavailable"), { responseCode: 550 }));
        }
        if (state.mode === "refuse-for-now") {
          return callback(Object.assign(new Error("Try again later"), { responseCode: 451 }));
        }
        if (state.mode === "slow") {
          // The answer comes too late: the client has given up, so nothing counts as delivered.
          setTimeout(
            () => callback(Object.assign(new Error("Too late"), { responseCode: 451 })),
            state.slowMs,
          );
          return;
        }
        state.received.push(await simpleParser(Buffer.concat(chunks)));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  const smtpPort = (smtp.server.address() as { port: number }).port;
  const sockets = new Set<Socket>();
  const relay: Server = createServer((client) => {
    const upstream = new Socket();
    sockets.add(client);
    sockets.add(upstream);
    upstream.connect(smtpPort, "127.0.0.1");
    client.on("data", (chunk: Buffer) => {
      sent.push(chunk);
      upstream.write(chunk);
    });
    upstream.on("data", (chunk: Buffer) => client.write(chunk));
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on("close", end);
    upstream.on("close", end);
    client.on("error", end);
    upstream.on("error", end);
  });
  await new Promise<void>((resolve) => relay.listen(0, "127.0.0.1", resolve));
  const relayPort = (relay.address() as { port: number }).port;
  state.url = `smtp://mailer:s3cret%40pass@127.0.0.1:${relayPort}`;
  state.close = async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => relay.close(() => resolve()));
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  };
  return state;
}

/** A port on 127.0.0.1 where nothing listens (bound, then closed). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
