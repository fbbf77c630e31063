import "server-only";
import { request } from "node:https";
import type { LookupFunction } from "node:net";
import { isIPv6 } from "node:net";
import { publicAddressesOf, systemResolve, type Resolve } from "./endpoint-address";

/** How long one delivery may take, from resolving the name to the push service's answer (issue 40 item 2). */
export const PUSH_DELIVERY_TIMEOUT_MS = 5_000;

/** How the sender reaches push services; the defaults are production's. */
export type PushSenderOptions = {
  /** Resolves the endpoint's host name (tests inject one); every address it gives is checked. */
  resolve?: Resolve;
  timeoutMs?: number;
  /**
   * TESTS ONLY: lets the sender reach the push service that stands in on 127.0.0.1 (loopback counts as
   * public) and trust its certificate. Passed in code by tests; no setting or variable turns it on.
   */
  testOnlyLoopback?: { ca: string | Buffer };
};

/** What web-push's generateRequestDetails gives: the encrypted, signed request. */
export type PushRequest = { endpoint: string; method: string; headers: Record<string, string | number>; body: Buffer | null };

/** Connects to the checked addresses only: the name is not resolved a second time. */
export function pinnedLookup(addresses: string[]): LookupFunction {
  const all = addresses.map((address) => ({ address, family: isIPv6(address) ? 6 : 4 }));
  return (_hostname, options, callback) => {
    if (options.all) callback(null, all);
    else callback(null, all[0].address, all[0].family);
  };
}

/**
 * Posts one push: resolves the endpoint's host, refuses it unless every address is public
 * (NonPublicEndpointError), connects only to those addresses, follows no redirect and gives up after
 * `timeoutMs` in all (resolving, connecting, TLS, the answer). Returns the push service's status code.
 */
export async function postPush(req: PushRequest, options: PushSenderOptions = {}): Promise<number> {
  const timeoutMs = options.timeoutMs ?? PUSH_DELIVERY_TIMEOUT_MS;
  const signal = AbortSignal.timeout(timeoutMs);
  const resolve = options.resolve ?? systemResolve;
  const aborted = new Promise<never>((_, reject) => signal.addEventListener("abort", () => reject(signal.reason as Error), { once: true }));
  aborted.catch(() => {});
  const { addresses } = await Promise.race([publicAddressesOf(req.endpoint, resolve, options.testOnlyLoopback !== undefined), aborted]);
  const url = new URL(req.endpoint);
  return new Promise<number>((done, fail) => {
    const outgoing = request(
      url,
      {
        method: req.method,
        headers: req.headers,
        lookup: pinnedLookup(addresses),
        agent: false,
        signal,
        ...(options.testOnlyLoopback ? { ca: options.testOnlyLoopback.ca } : {}),
      },
      (res) => {
        res.on("error", fail);
        // The answer's body is not needed; it is read (and dropped) so the socket closes cleanly.
        res.resume();
        res.on("end", () => done(res.statusCode ?? 0));
      },
    );
    outgoing.on("error", fail);
    outgoing.end(req.body ?? undefined);
  });
}
