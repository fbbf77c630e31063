// No "server-only" here: the custom server (scripts/next-server.ts) runs outside the react-server
// condition and uses these helpers too. Nothing in this file touches secrets or the database.
import { isIP } from "node:net";

/**
 * The header through which our own HTTP server (scripts/next-server.ts) hands the client's address to
 * route handlers and to the realtime sidecar. The server deletes whatever a client sent under this
 * name and sets it from the TCP peer, so a handler can trust it (docs/adr/0040).
 */
export const CLIENT_ADDRESS_HEADER = "x-krug-client-address";

/**
 * TRUST_PROXY as a number of trusted proxy hops: off/false/0 = none (the TCP peer is the client),
 * on/true/yes = 1, or a count such as 2 for a CDN in front of a load balancer.
 */
export function parseTrustProxy(raw: string | undefined): number {
  const v = (raw ?? "").trim().toLowerCase();
  if (v === "" || ["0", "false", "off", "no"].includes(v)) return 0;
  if (["true", "on", "yes"].includes(v)) return 1;
  if (/^\d{1,2}$/.test(v)) return Number(v);
  throw new Error(`TRUST_PROXY must be off, on or a number of proxy hops (got "${raw}")`);
}

/** "::ffff:127.0.0.1" (an IPv4 peer on a dual-stack socket) reads as "127.0.0.1". */
export function normaliseAddress(address: string): string {
  const a = address.trim();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(a);
  return mapped ? mapped[1] : a;
}

/**
 * The client's address for a request that reached us from `peer` with this X-Forwarded-For header.
 * With no trusted hops the peer is the client whatever the header says. With N trusted hops, the peer
 * is the nearest proxy and each proxy appended the address it saw: the client is the N-th entry from
 * the right. Entries further left were written by the client and are never believed. A chain shorter
 * than promised, or an entry that is not an address, falls back to the leftmost trusted entry (or the peer).
 */
export function clientAddressOf(peer: string | undefined, forwardedFor: string | string[] | undefined, trustedHops: number): string {
  const direct = peer ? normaliseAddress(peer) : "unknown";
  if (trustedHops <= 0) return direct;
  const header = Array.isArray(forwardedFor) ? forwardedFor.join(",") : (forwardedFor ?? "");
  const chain = header
    .split(",")
    .map((s) => normaliseAddress(s))
    .filter(Boolean);
  let client = direct;
  for (let hop = 1; hop <= trustedHops && hop <= chain.length; hop++) {
    const entry = chain[chain.length - hop];
    if (isIP(entry) === 0) break;
    client = entry;
  }
  return client;
}
