import "server-only";
import { BlockList, isIP } from "node:net";

/**
 * Which client a request came from, for throttling. Next keeps a client's own X-Forwarded-For,
 * so the socket's peer address is put on each request by instrumentation.ts (peer-address.ts),
 * and X-Forwarded-For is believed only hop by hop from peers listed in SEED_TRUSTED_PROXIES.
 */

export const peerAddressHeader = "x-seed-peer-address";

const processGlobal = globalThis as typeof globalThis & { __seedPeerSecret?: string };

/** The per-process secret that proves the peer header was set by this process, not a client. */
export function peerHeaderSecret(): string {
  processGlobal.__seedPeerSecret ??= crypto.randomUUID();
  return processGlobal.__seedPeerSecret;
}

/** ::ffff:192.0.2.1 is 192.0.2.1; brackets and zone ids go. */
export function normalizeAddress(raw: string): string | null {
  let address = raw.trim();
  if (address.startsWith("[") && address.includes("]"))
    address = address.slice(1, address.indexOf("]"));
  const zone = address.indexOf("%");
  if (zone > 0) address = address.slice(0, zone);
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) address = mapped[1];
  return isIP(address) ? address.toLowerCase() : null;
}

/**
 * SEED_TRUSTED_PROXIES: comma-separated addresses or CIDR ranges of the load balancers in front
 * of the app, e.g. "10.0.0.0/8, 127.0.0.1". Empty: no proxy is trusted.
 */
export function parseTrustedProxies(setting: string | undefined): BlockList {
  const list = new BlockList();
  for (const entry of (setting ?? "").split(",")) {
    const trimmed = entry.trim();
    if (!trimmed) continue;
    const [base = "", bits] = trimmed.split("/");
    const address = normalizeAddress(base);
    const family = address ? (isIP(address) === 6 ? "ipv6" : "ipv4") : null;
    const prefix = bits === undefined ? undefined : Number(bits);
    const maxPrefix = family === "ipv6" ? 128 : 32;
    if (
      !address ||
      !family ||
      (prefix !== undefined && (!Number.isInteger(prefix) || prefix < 0 || prefix > maxPrefix))
    ) {
      throw new Error(
        `SEED_TRUSTED_PROXIES has an entry that is not an address or range: "${trimmed}".`,
      );
    }
    if (prefix === undefined) list.addAddress(address, family);
    else list.addSubnet(address, prefix, family);
  }
  return list;
}

function isTrusted(list: BlockList, address: string): boolean {
  return list.check(address, isIP(address) === 6 ? "ipv6" : "ipv4");
}

/**
 * The client's address: the peer, or, while the hop in front is a trusted proxy, the address it
 * says it forwarded for. Null when the peer is unknown (no trustworthy peer header).
 */
export function resolveClientAddress(
  headers: Headers,
  trustedProxies: BlockList,
  secret = peerHeaderSecret(),
): string | null {
  const peerHeader = headers.get(peerAddressHeader) ?? "";
  const separator = peerHeader.indexOf(" ");
  if (separator < 0 || peerHeader.slice(0, separator) !== secret) return null;
  let client = normalizeAddress(peerHeader.slice(separator + 1));
  if (!client) return null;
  const forwarded = (headers.get("x-forwarded-for") ?? "").split(",").reverse();
  for (const hop of forwarded) {
    if (!isTrusted(trustedProxies, client)) break;
    const next = normalizeAddress(hop);
    // A garbled hop from a trusted proxy: stop at the proxy rather than believe anything else.
    if (!next) break;
    client = next;
  }
  return client;
}
