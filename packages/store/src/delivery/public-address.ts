import { lookup as dnsLookup } from "node:dns/promises";
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";

// Where the server may call out to on an admin's or editor's word (webhooks): public addresses
// only, so an address cannot be used to reach the server itself, its network or a cloud's
// metadata service. A server may allow more networks (SEED_WEBHOOK_ALLOW_NETWORKS, read in the
// web app), for an intranet's own receivers.

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** Networks a server allows besides public addresses, as parsed CIDR ranges. */
export type AllowedNetworks = readonly (readonly [Address, number])[];

/**
 * "10.0.0.0/8, 192.168.1.20, ::1/128" as ranges (a bare address is its own /32 or /128).
 * Throws a message naming the entry that is not one.
 */
export function parseAllowedNetworks(text: string): AllowedNetworks {
  const entries = text
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  return entries.map((entry) => {
    try {
      if (entry.includes("/")) return ipaddr.parseCIDR(entry);
      const address = ipaddr.parse(entry);
      return [address, address.kind() === "ipv4" ? 32 : 128] as const;
    } catch {
      throw new Error(
        `"${entry.slice(0, 60)}" is not an address or network (write 10.0.0.0/8 or 192.168.1.20).`,
      );
    }
  });
}

/** An IPv4-mapped IPv6 address (::ffff:a.b.c.d) is the IPv4 address it carries. */
function canonical(address: Address): Address {
  return address.kind() === "ipv6" && (address as ipaddr.IPv6).isIPv4MappedAddress()
    ? (address as ipaddr.IPv6).toIPv4Address()
    : address;
}

const globalUnicast6 = ipaddr.parseCIDR("2000::/3");

const rangeWords: Record<string, string> = {
  loopback: "a loopback",
  private: "a private",
  uniqueLocal: "a private",
  linkLocal: "a link-local",
  unspecified: "an unspecified",
  carrierGradeNat: "a shared (carrier NAT)",
  multicast: "a multicast",
  broadcast: "a broadcast",
};

/**
 * Null when the server may call `address`: a public unicast address (IPv6 only from the global
 * unicast block 2000::/3), or one inside an allowed network. Otherwise what kind of address it
 * is, for the reason a delivery shows.
 */
export function addressRefusal(address: string, allowed: AllowedNetworks = []): string | null {
  if (!ipaddr.isValid(address)) return "not an address";
  const ip = canonical(ipaddr.parse(address));
  for (const [network, bits] of allowed) {
    const net = canonical(network);
    // a mapped network (::ffff:10.0.0.0/104) is its IPv4 network
    const netBits = net !== network ? bits - 96 : bits;
    if (net.kind() === ip.kind() && ip.match(net, netBits)) return null;
  }
  const range = ip.range();
  if (range === "unicast" && (ip.kind() === "ipv4" || ip.match(globalUnicast6))) return null;
  return `${rangeWords[range] ?? "a reserved"} address`;
}

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** How a host name becomes addresses; the system resolver unless a test gives its own DNS. */
export type Resolve = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolve: Resolve = (hostname) =>
  dnsLookup(hostname, { all: true, verbatim: true });

/** Why an outgoing call was not made: the address is not one the server may call. */
export class RefusedAddressError extends Error {
  readonly code = "ESEED_REFUSED_ADDRESS";
}

function refusedError(host: string, kind: string): RefusedAddressError {
  return new RefusedAddressError(
    `${host} is ${kind}; webhooks go to public addresses (SEED_WEBHOOK_ALLOW_NETWORKS allows others)`,
  );
}

/** The URL's host as written between brackets or not: "[::1]" is "::1". */
function bareHost(hostname: string): string {
  return hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname;
}

/**
 * Refuses a literal address at once (the connection makes no lookup for one), before any
 * connection is opened.
 */
export function refuseLiteralHost(hostname: string, allowed: AllowedNetworks): void {
  const host = bareHost(hostname);
  if (isIP(host) === 0) return;
  const refusal = addressRefusal(host, allowed);
  if (refusal) throw refusedError(host, refusal);
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | ResolvedAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for node:http(s) that resolves once, refuses the call if any answer is not an
 * address the server may call, and connects to exactly the answers it checked: a name that
 * answers differently a moment later (DNS rebinding) gains nothing.
 */
export function vettedLookup(allowed: AllowedNetworks, resolve: Resolve = systemResolve) {
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback): void => {
    resolve(hostname).then(
      (answers) => {
        if (answers.length === 0) {
          callback(
            Object.assign(new Error(`${hostname} has no address`), { code: "ENOTFOUND" }),
            "",
          );
          return;
        }
        for (const answer of answers) {
          const refusal = addressRefusal(answer.address, allowed);
          if (refusal) {
            callback(refusedError(hostname, `on ${refusal.replace(/ address$/, " network")}`), "");
            return;
          }
        }
        const first = answers[0] as ResolvedAddress;
        if (options.all) callback(null, answers);
        else callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, ""),
    );
  };
}
