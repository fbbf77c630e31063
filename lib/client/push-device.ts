/**
 * This browser's Web Push subscription (issue 25 section 2, docs/adr/0123): subscribe after the person asked,
 * post it only when it is new or changed, re-subscribe when the server's VAPID key changed, unsubscribe
 * with the device's row removed. Loaded on demand by the switch (components/push/device-push.tsx) and by
 * sign-out (lib/client/api.ts#logout), never part of the shell.
 *
 * The browser remembers which row of `push_subscriptions` is its own in localStorage (the POST answers
 * with it): the device list never shows endpoints, so nothing else could tell.
 */
import type { PushDeviceDto, PushDevicesDto } from "@/lib/validation/push";
import { api } from "./api";

const STORE_KEY = "krug.push.device";

/** What this browser remembers about its own row: the id the POST gave and what was posted. */
type Stored = { id: number; endpoint: string; p256dh: string };

export type DeviceStatus =
  | { kind: "unsupported" }
  | { kind: "denied" }
  | { kind: "off" }
  | { kind: "on"; deviceId: number };

export class PermissionRefused extends Error {
  constructor(readonly permission: NotificationPermission) {
    super(`notification permission ${permission}`);
  }
}

/**
 * The browser's push service did not answer in time (issue 44 item 2): a browser whose push service cannot be
 * reached (a network that blocks it, a browser build without one) leaves `subscribe` pending for minutes.
 */
export class PushTimeout extends Error {
  constructor(readonly ms: number) {
    super(`the push service did not answer in ${ms} ms`);
  }
}

/** How long switching on may take once the permission is given, before the switch gives up and says so. */
export const ENABLE_TIMEOUT_MS = 8_000;

/** Whether Krug runs as an installed app (its own window, no address bar to point at). */
export function installedApp(): boolean {
  return (
    typeof window !== "undefined" &&
    (window.matchMedia("(display-mode: standalone)").matches || (navigator as Navigator & { standalone?: boolean }).standalone === true)
  );
}

export function pushSupported(): boolean {
  return typeof window !== "undefined" && "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

function readStored(): Stored | null {
  try {
    const v = JSON.parse(window.localStorage.getItem(STORE_KEY) ?? "null") as Partial<Stored> | null;
    return v && Number.isSafeInteger(v.id) && typeof v.endpoint === "string" && typeof v.p256dh === "string" ? (v as Stored) : null;
  } catch {
    return null;
  }
}

function writeStored(value: Stored | null): void {
  try {
    if (value) window.localStorage.setItem(STORE_KEY, JSON.stringify(value));
    else window.localStorage.removeItem(STORE_KEY);
  } catch {
    /* storage disabled: the switch reads "off" next time, and switching on posts again (200, known) */
  }
}

/** The id of this browser's row, if it has one. */
export function thisDeviceId(): number | null {
  return readStored()?.id ?? null;
}

function base64url(buffer: ArrayBuffer | null | undefined): string {
  if (!buffer) return "";
  let s = "";
  for (const b of new Uint8Array(buffer)) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64url(value: string): Uint8Array<ArrayBuffer> {
  const s = atob(value.replace(/-/g, "+").replace(/_/g, "/"));
  const out = new Uint8Array(new ArrayBuffer(s.length));
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

type SubscriptionJson = { endpoint: string; keys: { p256dh: string; auth: string } };

function jsonOf(sub: PushSubscription): SubscriptionJson {
  const j = sub.toJSON() as { endpoint?: string; keys?: { p256dh?: string; auth?: string } };
  return { endpoint: j.endpoint ?? sub.endpoint, keys: { p256dh: j.keys?.p256dh ?? "", auth: j.keys?.auth ?? "" } };
}

/** The worker's registration; registers it when the page's own registration (on `load`) has not run yet. */
async function registration(): Promise<ServiceWorkerRegistration> {
  const existing = await navigator.serviceWorker.getRegistration("/");
  if (!existing) await navigator.serviceWorker.register("/sw.js", { scope: "/", updateViaCache: "none" });
  return navigator.serviceWorker.ready;
}

async function currentSubscription(): Promise<PushSubscription | null> {
  const reg = await navigator.serviceWorker.getRegistration("/");
  return (await reg?.pushManager.getSubscription()) ?? null;
}

/** Posts the subscription unless this very one is already this account's row; returns the row's id. */
async function post(sub: PushSubscription, devices: readonly PushDeviceDto[]): Promise<number> {
  const body = jsonOf(sub);
  const stored = readStored();
  const listed = stored !== null && devices.some((d) => d.id === stored.id);
  if (listed && stored.endpoint === body.endpoint && stored.p256dh === body.keys.p256dh) return stored.id;
  const device = await api<PushDeviceDto>("push/subscriptions", { method: "POST", body });
  writeStored({ id: device.id, endpoint: body.endpoint, p256dh: body.keys.p256dh });
  // The browser's earlier row (an endpoint it no longer has) would only ever fail: remove it.
  if (listed && stored.id !== device.id) await api(`push/subscriptions/${stored.id}`, { method: "DELETE" }).catch(() => {});
  return device.id;
}

/**
 * What the switch shows on load, from the browser's state and the account's devices (rendered by the page).
 * A subscription whose row is listed is "on"; when the browser's endpoint or the server's key changed since,
 * it is brought up to date here (no prompt: the permission was given before).
 */
export async function readStatus(list: PushDevicesDto): Promise<DeviceStatus> {
  if (!pushSupported()) return { kind: "unsupported" };
  if (Notification.permission === "denied") return { kind: "denied" };
  const sub = await currentSubscription();
  const stored = readStored();
  if (!stored || !list.devices.some((d) => d.id === stored.id)) {
    // Removed elsewhere (settings of another device, a 404/410) or never ours: off, and forgotten.
    if (stored) writeStored(null);
    return { kind: "off" };
  }
  if (!sub || Notification.permission !== "granted") return { kind: "off" };
  if (base64url(sub.options.applicationServerKey) !== list.vapidPublicKey) return { kind: "on", deviceId: await subscribe(list) };
  return { kind: "on", deviceId: await post(sub, list.devices) };
}

/**
 * Switches push on for this browser: the permission prompt (called from the click), the subscription with
 * the server's key (a subscription made with another key is replaced), then the POST if it is new or changed.
 */
export async function enablePush({
  timeoutMs = ENABLE_TIMEOUT_MS,
  onLate,
}: { timeoutMs?: number; onLate?: (answer: { deviceId: number; list: PushDevicesDto }) => void } = {}): Promise<{ deviceId: number; list: PushDevicesDto }> {
  const permission = Notification.permission === "granted" ? "granted" : await Notification.requestPermission();
  if (permission !== "granted") throw new PermissionRefused(permission);
  const list = await api<PushDevicesDto>("push/subscriptions");
  // Only the push service is timed: not the person at the prompt, nor the worker's first install on a slow line.
  const late = onLate && ((deviceId: number) => void api<PushDevicesDto>("push/subscriptions").then((fresh) => onLate({ deviceId, list: fresh })));
  const deviceId = await subscribe(list, { timeoutMs, onLate: late });
  return { deviceId, list: await api<PushDevicesDto>("push/subscriptions") };
}

/**
 * `promise`, or a PushTimeout after `ms`; what it resolves to after that goes to `onLate` (the subscription
 * was made after all, and is posted then).
 */
function withTimeout<T>(promise: Promise<T>, ms: number, onLate?: (value: T) => void): Promise<T> {
  let late = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  promise.then(
    (value) => {
      if (late) onLate?.(value);
    },
    () => {},
  );
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      late = true;
      reject(new PushTimeout(ms));
    }, ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** With `limit`, the push service's answer is awaited `timeoutMs` at most (issue 44 item 2). */
async function subscribe(list: PushDevicesDto, limit?: { timeoutMs: number; onLate?: (deviceId: number) => void }): Promise<number> {
  const reg = await registration();
  let sub = await reg.pushManager.getSubscription();
  if (sub && base64url(sub.options.applicationServerKey) !== list.vapidPublicKey) {
    await sub.unsubscribe().catch(() => false);
    sub = null;
  }
  if (!sub) {
    const asked = reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: fromBase64url(list.vapidPublicKey) });
    const onLate = limit?.onLate;
    sub = limit ? await withTimeout(asked, limit.timeoutMs, onLate && ((late) => void post(late, list.devices).then(onLate, () => {}))) : await asked;
  }
  return post(sub, list.devices);
}

/** Switches push off for this browser: its row is deleted and the browser's subscription ended. */
export async function disablePush(): Promise<void> {
  const stored = readStored();
  if (stored) {
    try {
      await api(`push/subscriptions/${stored.id}`, { method: "DELETE" });
    } catch (err) {
      if (!(err instanceof Error && "status" in err && err.status === 404)) throw err;
    }
  }
  writeStored(null);
  await (await currentSubscription())?.unsubscribe();
}

/** Removes one device from the settings list; this browser's own also ends its subscription (then true). */
export async function removeDevice(id: number): Promise<boolean> {
  if (readStored()?.id === id) {
    await disablePush();
    return true;
  }
  await api(`push/subscriptions/${id}`, { method: "DELETE" });
  return false;
}

/**
 * Sign-out (lib/client/api.ts#logout): this browser stops receiving the account's pushes. The row is
 * deleted with a plain fetch (the session still holds; no refresh, so a failed session cannot loop back
 * into sign-out), the subscription ended either way; at most `timeoutMs`, never throws.
 */
export async function forgetThisDevice(timeoutMs = 3_000): Promise<void> {
  if (!pushSupported()) return;
  const stored = readStored();
  // Without the permission this browser holds no subscription, and there is no row of ours to delete:
  // sign-out does not wait on the push manager at all.
  if (!stored && Notification.permission !== "granted") return;
  const work = (async () => {
    writeStored(null);
    await Promise.allSettled([
      stored ? fetch(`/api/v1/push/subscriptions/${stored.id}`, { method: "DELETE", credentials: "same-origin" }) : null,
      currentSubscription().then((sub) => sub?.unsubscribe()),
    ]);
  })();
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([work.catch(() => {}), new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
  clearTimeout(timer);
}
