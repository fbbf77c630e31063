import type { RefreshOutcome } from "./realtime-core";

/**
 * Spends the refresh-token cookie for a new token pair. Refresh tokens rotate and a spent one presented
 * again revokes the whole session, so two refreshes must never race with the same cookie: calls in one
 * tab share one request, and tabs take turns through a Web Lock (each then sends the cookie the previous
 * one set). Every refresh in the browser should go through here.
 */
let inFlight: Promise<RefreshOutcome> | null = null;

const LOCK_NAME = "krug.auth-refresh";

async function post(): Promise<RefreshOutcome> {
  const res = await fetch("/api/v1/auth/refresh", { method: "POST", credentials: "include" });
  if (res.ok) return "ok";
  return res.status === 401 ? "signed-out" : "error";
}

export function refreshSession(): Promise<RefreshOutcome> {
  inFlight ??= (async () => {
    try {
      const locks = typeof navigator === "undefined" ? undefined : navigator.locks;
      return locks ? await locks.request(LOCK_NAME, post) : await post();
    } catch {
      return "error" as const; // offline or the server is away: not a sign-out
    } finally {
      inFlight = null;
    }
  })();
  return inFlight;
}
