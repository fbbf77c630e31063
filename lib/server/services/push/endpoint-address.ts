import "server-only";
import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";

/**
 * Where a push may go (issue 40 item 1, docs/adr/0163): an https endpoint on a public address. Browsers'
 * push services are public hosts; an endpoint that names this machine or its network (loopback, private,
 * link-local, unique-local, CGNAT, unspecified, multicast, documentation and the IPv6 forms that carry
 * an IPv4 address inside) would turn the sender into a way to POST to internal HTTPS services.
 */

/** Resolves a host name to every address it has now (the sender's default: the system's resolver). */
export type Resolve = (hostname: string) => Promise<string[]>;

export const systemResolve: Resolve = async (hostname) => (await lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

/** The non-public ranges (RFC 6890 and its updates). IPv6 outside 2000::/3 is refused before this list. */
const refused = new BlockList();
for (const [net, bits] of [
  ["0.0.0.0", 8], // "this network", the unspecified address
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // CGNAT
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local, cloud metadata
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved and broadcast
] as const)
  refused.addSubnet(net, bits, "ipv4");
for (const [net, bits] of [
  ["2001::", 23], // protocol assignments: Teredo (carries an IPv4 address), benchmarking, ORCHID
  ["2001:db8::", 32], // documentation
  ["2002::", 16], // 6to4 (carries an IPv4 address)
  ["3fff::", 20], // documentation
] as const)
  refused.addSubnet(net, bits, "ipv6");
const globalUnicast = new BlockList();
globalUnicast.addSubnet("2000::", 3, "ipv6");
const loopback = new BlockList();
loopback.addSubnet("127.0.0.0", 8, "ipv4");
loopback.addAddress("::1", "ipv6");

/**
 * Whether `address` (an IP literal) is public. `allowLoopback` is for tests only (the push service that
 * stands in on 127.0.0.1): no configuration reaches it.
 */
export function isPublicAddress(address: string, allowLoopback = false): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  const type = family === 4 ? "ipv4" : "ipv6";
  if (allowLoopback && loopback.check(address, type)) return true;
  // Only global unicast IPv6: leaves out ::, ::1, ::ffff:a.b.c.d, 64:ff9b::/96, fc00::/7, fe80::/10, ff00::/8.
  if (type === "ipv6" && !globalUnicast.check(address, "ipv6")) return false;
  return !refused.check(address, type);
}

/**
 * The endpoint's host as the connection will use it: an IP literal without brackets, or a name without a
 * trailing dot. WHATWG URL parsing already rewrote the odd IPv4 spellings (0x7f000001, 2130706433, 127.1,
 * 0177.0.0.1) to dotted decimal, so they are literals here.
 */
export function endpointHost(endpoint: string): { hostname: string; literal: boolean } {
  const raw = new URL(endpoint).hostname;
  const hostname = raw.startsWith("[") ? raw.slice(1, -1) : raw.replace(/\.$/, "");
  return { hostname, literal: isIP(hostname) !== 0 };
}

/** localhost and *.localhost always name this machine (RFC 6761), whatever a resolver says. */
const isLocalName = (hostname: string) => /(^|\.)localhost$/i.test(hostname);

/** How long a subscribe waits for the resolver: a name not resolved by then is checked at send time. */
const SUBSCRIBE_LOOKUP_MS = 2_000;

/**
 * The check at subscribe time: false when the endpoint is not https, names this machine, is a non-public
 * literal, or resolves now to any non-public address. A name that does not resolve (yet, or in time) is
 * accepted: the sender checks every address again when it connects.
 */
export async function mayBePushEndpoint(endpoint: string, resolve: Resolve = systemResolve): Promise<boolean> {
  if (new URL(endpoint).protocol !== "https:") return false;
  const { hostname, literal } = endpointHost(endpoint);
  if (literal) return isPublicAddress(hostname);
  if (isLocalName(hostname)) return false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const addresses = await Promise.race([
    resolve(hostname).catch(() => [] as string[]),
    new Promise<string[]>((done) => (timer = setTimeout(() => done([]), SUBSCRIBE_LOOKUP_MS))),
  ]);
  clearTimeout(timer);
  return addresses.every((a) => isPublicAddress(a));
}

/** The endpoint resolved to a non-public address when the sender was about to connect. */
export class NonPublicEndpointError extends Error {
  constructor(readonly hostname: string) {
    super(`push endpoint ${hostname} is not on a public address`);
  }
}

/**
 * The check at send time: every address the endpoint's host has now (a name that rebinds between
 * subscribe and send is caught here), or NonPublicEndpointError. The sender connects only to these.
 * A resolver failure throws as a network failure does (the job is tried again).
 */
export async function publicAddressesOf(endpoint: string, resolve: Resolve, allowLoopback: boolean): Promise<{ hostname: string; addresses: string[] }> {
  const { hostname, literal } = endpointHost(endpoint);
  if (!literal && isLocalName(hostname)) throw new NonPublicEndpointError(hostname);
  const addresses = literal ? [hostname] : await resolve(hostname);
  if (addresses.length === 0 || !addresses.every((a) => isPublicAddress(a, allowLoopback))) throw new NonPublicEndpointError(hostname);
  return { hostname, addresses };
}
