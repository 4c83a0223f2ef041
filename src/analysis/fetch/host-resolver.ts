/**
 * Turns a host name into the addresses it stands for. The default uses the system resolver (so /etc/hosts
 * and the machine's DNS settings apply); an operator may name DNS servers instead (PAGEGRADE_DNS_SERVERS).
 */
import { promises as dns } from "node:dns";

/** Returns every address of the host; an empty list or a rejection means it cannot be resolved. */
export type HostResolver = (hostname: string) => Promise<string[]>;

export const systemResolver: HostResolver = async (hostname) => {
  const answers = await dns.lookup(hostname, { all: true, verbatim: true });
  return answers.map((answer) => answer.address);
};

/** Queries the given servers ("127.0.0.1:5353", "[::1]:53") directly for A and AAAA records. */
export function dnsServerResolver(servers: readonly string[]): HostResolver {
  const resolver = new dns.Resolver({ timeout: 3000, tries: 2 });
  resolver.setServers([...servers]);
  return async (hostname) => {
    const [v4, v6] = await Promise.allSettled([resolver.resolve4(hostname), resolver.resolve6(hostname)]);
    const addresses = [
      ...(v4.status === "fulfilled" ? v4.value : []),
      ...(v6.status === "fulfilled" ? v6.value : []),
    ];
    if (addresses.length === 0 && v4.status === "rejected") throw v4.reason;
    return addresses;
  };
}
