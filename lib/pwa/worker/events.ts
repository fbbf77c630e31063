/**
 * The worker's own event handlers beside Serwist's (install, activate, fetch): Web Push's `push` and
 * `notificationclick` (issue 25 section 2, docs/adr/0123). registerEventHandlers is called once by
 * lib/pwa/worker/sw.ts.
 */
import type { PushPayload } from "@/lib/validation/push";
import { readerLocale } from "./offline-page";
import { registerOutboxSync } from "./outbox";
import { registerShareTarget } from "./share-target";

/** The monochrome badge Android shows in the status bar (a white-on-transparent logo drawn at build time). */
const BADGE = "/icons/icon-192.png";

/** The payload the server sends (lib/server/services/push/deliver.ts), or null when it is not one. */
export function parsePushPayload(raw: unknown): PushPayload | null {
  if (typeof raw !== "object" || raw === null) return null;
  const p = raw as Record<string, unknown>;
  if (typeof p.title !== "string" || typeof p.body !== "string" || typeof p.tag !== "string" || typeof p.type !== "string") return null;
  if (typeof p.url !== "string") return null;
  const icon = typeof p.icon === "string" ? p.icon : null;
  return { title: p.title.slice(0, 200), body: p.body.slice(0, 500), icon, url: p.url, tag: p.tag.slice(0, 200), type: p.type };
}

/**
 * Where a click may lead: a path of this origin only. An absolute URL of another origin, a protocol-relative
 * `//host`, `javascript:` or anything unparsable leads to the notifications page instead.
 */
export function safeTarget(url: unknown, origin: string): string {
  if (typeof url !== "string" || !url.startsWith("/") || url.startsWith("//") || url.startsWith("/\\")) return "/push";
  try {
    const target = new URL(url, origin);
    return target.origin === origin ? target.pathname + target.search + target.hash : "/push";
  } catch {
    return "/push";
  }
}

type WindowLike = { url: string; visibilityState: DocumentVisibilityState };

/**
 * What a push does when a Krug tab is visible (docs/adr/0123): a message of the dialog a visible tab shows
 * is not shown at all (the tab shows it); anything else is shown silently (no sound, no vibration), since
 * the tab's bell and toasts show it too. Without a visible tab it is shown as usual.
 */
export function pushDisplay(payload: PushPayload, windows: readonly WindowLike[], origin: string): "skip" | "silent" | "show" {
  const visible = windows.filter((w) => w.visibilityState === "visible");
  if (visible.length === 0) return "show";
  if (payload.type === "MESSAGE") {
    const dialog = safeTarget(payload.url, origin);
    if (visible.some((w) => pathOf(w.url, origin) === dialog)) return "skip";
  }
  return "silent";
}

function pathOf(url: string, origin: string): string | null {
  try {
    const u = new URL(url);
    return u.origin === origin ? u.pathname : null;
  } catch {
    return null;
  }
}

async function onPush(scope: ServiceWorkerGlobalScope, event: PushEvent): Promise<void> {
  let payload: PushPayload | null = null;
  try {
    payload = parsePushPayload(event.data?.json());
  } catch {
    payload = null;
  }
  if (!payload) return; // not ours: nothing to show (the server sends nothing else)
  const origin = scope.location.origin;
  const windows = await scope.clients.matchAll({ type: "window", includeUncontrolled: true });
  const display = pushDisplay(payload, windows, origin);
  if (display === "skip") return;
  // The text is in the device's language (chosen by the server at subscribe); the reader's language names it.
  const lang = await readerLocale(scope as Parameters<typeof readerLocale>[0]).catch(() => undefined);
  await scope.registration.showNotification(payload.title, {
    body: payload.body,
    icon: payload.icon ?? "/icons/icon-192.png",
    badge: BADGE,
    tag: payload.tag || undefined,
    // A burst of one dialog replaces its notification; a new message alerts again, unless a tab is visible
    // (renotify needs a tag: the browser refuses it without one).
    renotify: display === "show" && payload.tag !== "",
    silent: display === "silent",
    lang,
    timestamp: Date.now(),
    data: { url: safeTarget(payload.url, origin), type: payload.type },
  } as NotificationOptions);
}

async function onNotificationClick(scope: ServiceWorkerGlobalScope, event: NotificationEvent): Promise<void> {
  event.notification.close();
  const origin = scope.location.origin;
  const target = safeTarget((event.notification.data as { url?: unknown } | null)?.url, origin);
  const url = new URL(target, origin).href;
  // A controlled tab can be navigated by the worker; a tab loaded before the worker activated cannot, so
  // only controlled ones are tried, the one already there first, then any.
  const windows = (await scope.clients.matchAll({ type: "window" })) as WindowClient[];
  const ordered = [...windows.filter((w) => w.url === url), ...windows.filter((w) => w.url !== url)];
  for (const client of ordered) {
    try {
      const focused = client.focused ? client : await client.focus().catch(() => client);
      const landed = focused.url === url ? focused : await focused.navigate(url);
      if (landed) return;
    } catch {
      // this one could not be navigated (it went away): the next, or a new window
    }
  }
  await scope.clients.openWindow(url);
}

export function registerEventHandlers(scope: ServiceWorkerGlobalScope): void {
  scope.addEventListener("push", (event) => {
    event.waitUntil(onPush(scope, event));
  });
  scope.addEventListener("notificationclick", (event) => {
    event.waitUntil(onNotificationClick(scope, event));
  });
  // Issue 44 (docs/adr/0179): the share sheet's POST and the chat outbox's Background Sync.
  registerShareTarget(scope);
  registerOutboxSync(scope);
}
