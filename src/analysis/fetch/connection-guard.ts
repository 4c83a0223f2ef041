/**
 * The one gate every outbound connection passes: resolve the host once, refuse if any of its addresses is not
 * permitted, and hand back the single vetted address to connect to. Connecting to that exact address (never
 * resolving again) is what stops DNS rebinding; see guarded-agent.ts.
 */
import { isIP } from "node:net";
import type { AddressPolicy } from "./address-policy.js";
import { failures } from "./fetch-failure.js";
import type { HostResolver } from "./host-resolver.js";

export interface VettedAddress {
  address: string;
  family: 4 | 6;
}

export class ConnectionGuard {
  constructor(
    private readonly policy: AddressPolicy,
    private readonly resolve: HostResolver,
  ) {}

  /** Resolves and vets a URL host name ("example.com", "127.0.0.1", "[::1]"); throws a FetchFailure. */
  async vet(hostname: string): Promise<VettedAddress> {
    const host = hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname;
    // "localhost" and its subdomains are loopback by definition (RFC 6761), whatever a resolver says.
    const addresses = isIP(host) ? [host] : isLocalhostName(host) ? ["127.0.0.1"] : await this.lookup(host);
    for (const address of addresses) {
      if (!this.policy.judge(address).permitted) throw failures.privateAddress();
    }
    const [address] = addresses;
    if (address === undefined) throw failures.unresolvable();
    return { address, family: isIP(address) === 6 ? 6 : 4 };
  }

  private async lookup(host: string): Promise<string[]> {
    try {
      return await this.resolve(host);
    } catch {
      throw failures.unresolvable();
    }
  }
}

function isLocalhostName(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, "");
  return name === "localhost" || name.endsWith(".localhost");
}
