/**
 * A minimal authoritative DNS server on 127.0.0.1 (UDP) for guard tests: it answers A and AAAA queries from a
 * function of the name and the query count, so a test can make a name resolve to a private address, or to
 * one address first and another later (rebinding). TTLs are 0 so no resolver caches an answer.
 */
import { createSocket } from "node:dgram";
import { isIP } from "node:net";

export type Answerer = (name: string, queryNumber: number) => string[];

export interface DnsServer {
  server: string;
  queries: string[];
  close(): Promise<void>;
}

export async function startDnsServer(answer: Answerer): Promise<DnsServer> {
  const socket = createSocket("udp4");
  const queries: string[] = [];
  const counts = new Map<string, number>();
  socket.on("message", (message, remote) => {
    const { id, name, type, questionEnd } = readQuestion(message);
    queries.push(`${name} ${type === 28 ? "AAAA" : "A"}`);
    const count = (counts.get(name) ?? 0) + (type === 1 ? 1 : 0);
    counts.set(name, count);
    const family = type === 28 ? 6 : 4;
    const addresses = answer(name, Math.max(count, 1)).filter((address) => isIP(address) === family);
    socket.send(buildResponse(message, id, questionEnd, type, addresses), remote.port, remote.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
  return {
    server: `127.0.0.1:${socket.address().port}`,
    queries,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}

function readQuestion(message: Buffer) {
  const id = message.readUInt16BE(0);
  let offset = 12;
  const labels: string[] = [];
  for (let length = message[offset] ?? 0; length > 0; length = message[offset] ?? 0) {
    labels.push(message.toString("ascii", offset + 1, offset + 1 + length));
    offset += length + 1;
  }
  offset += 1;
  const type = message.readUInt16BE(offset);
  return { id, name: labels.join(".").toLowerCase(), type, questionEnd: offset + 4 };
}

function buildResponse(
  query: Buffer,
  id: number,
  questionEnd: number,
  type: number,
  addresses: string[],
): Buffer {
  const header = Buffer.alloc(12);
  header.writeUInt16BE(id, 0);
  header.writeUInt16BE(0x8180, 2); // response, recursion desired and available, no error
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(addresses.length, 6);
  const answers = addresses.map((address) => {
    const data = type === 28 ? ipv6Bytes(address) : Buffer.from(address.split(".").map(Number));
    const record = Buffer.alloc(12);
    record.writeUInt16BE(0xc00c, 0); // pointer to the question's name
    record.writeUInt16BE(type, 2);
    record.writeUInt16BE(1, 4); // class IN
    record.writeUInt32BE(0, 6); // TTL 0
    record.writeUInt16BE(data.length, 10);
    return Buffer.concat([record, data]);
  });
  return Buffer.concat([header, query.subarray(12, questionEnd), ...answers]);
}

function ipv6Bytes(address: string): Buffer {
  const [head = "", tail = ""] = address.split("::");
  const headParts = head ? head.split(":") : [];
  const tailParts = tail ? tail.split(":") : [];
  const parts = [...headParts, ...Array(8 - headParts.length - tailParts.length).fill("0"), ...tailParts];
  const bytes = Buffer.alloc(16);
  parts.forEach((part, index) => {
    bytes.writeUInt16BE(Number.parseInt(part, 16), index * 2);
  });
  return bytes;
}
