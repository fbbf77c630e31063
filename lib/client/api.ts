import { refreshSession } from "./auth-refresh";

/**
 * The browser's way to call /api/v1 (spec section 7): cookies are sent, JSON in and out, and a 401
 * triggers one token refresh and a retry. If the refresh fails, the session is over: sign out and go
 * to the login page.
 */

export type ApiIssue = { path: string; message: string };

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly issues: ApiIssue[] = [],
  ) {
    super(message);
    this.name = "ApiError";
  }
}

type Options = { method?: string; body?: unknown; signal?: AbortSignal };

function send(path: string, { method = "GET", body, signal }: Options): Promise<Response> {
  return fetch(`/api/v1/${path.replace(/^\/+/, "")}`, {
    method,
    credentials: "same-origin",
    headers: body === undefined ? undefined : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal,
  });
}

async function errorOf(res: Response): Promise<ApiError> {
  const data = (await res.json().catch(() => null)) as { error?: { code?: string; message?: string; issues?: ApiIssue[] } } | null;
  return new ApiError(res.status, data?.error?.code ?? "unknown", data?.error?.message ?? res.statusText, data?.error?.issues);
}

/** Signs out locally and on the server, then leaves for the login page. Failures are only logged (spec §8). */
export async function logout(): Promise<void> {
  // First, while the session holds: this browser stops receiving the account's pushes (docs/adr/0123). The
  // module is loaded only here and on the switch; it never throws and gives up after a few seconds.
  await import("./push-device").then((m) => m.forgetThisDevice()).catch(() => {});
  try {
    await fetch("/api/v1/auth/logout", { method: "POST", credentials: "same-origin" });
  } catch (err) {
    console.error("logout failed", err);
  }
  // What the device kept of the account goes with the session (docs/adr/0178); the worker wipes it too
  // when it sees the sign-out, but a page it does not control must not leave it behind.
  await import("@/lib/pwa/worker/wipe").then((m) => m.wipeDeviceData()).catch(() => {});
  // The app icon's unread count is the account's (docs/adr/0179).
  void (navigator as Navigator & { clearAppBadge?: () => Promise<void> }).clearAppBadge?.().catch(() => {});
  // A full page load on purpose: nothing of the ended session (SWR caches, socket, handlers) survives it.
  // eslint-disable-next-line @next/next/no-location-assign-relative-destination
  window.location.assign("/login");
}

export async function api<T = unknown>(path: string, options: Options = {}): Promise<T> {
  let res = await send(path, options);
  // Auth endpoints answer 401 for wrong credentials; refreshing there would make no sense.
  if (res.status === 401 && !path.replace(/^\/+/, "").startsWith("auth/")) {
    // One shared refresh for the whole browser (auth-refresh.ts): rotated tokens must never race.
    const outcome = await refreshSession();
    if (outcome === "signed-out") {
      await logout();
      throw await errorOf(res);
    }
    if (outcome === "ok") res = await send(path, options);
  }
  if (!res.ok) throw await errorOf(res);
  if (res.status === 204) return undefined as T;
  return (await res.json()) as T;
}
