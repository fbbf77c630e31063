"use client";
/**
 * The total of unread messages (GET dialogs/unread), shown on the "messages" item of the sidebar and
 * the phone bar, kept live by spec section 4: a message received outside the dialog in view adds one;
 * opening a dialog (PUT dialogs/{id}) resets that dialog, after which the total is read again.
 * One store per tab; the first page render seeds it, so the badge needs no fetch for its first paint.
 */
import { useEffect, useSyncExternalStore } from "react";
import { api } from "@/lib/client/api";
import { getRealtimeClient } from "@/lib/client/socket";
import type { UnreadCount } from "@/lib/validation/dialogs";
import { CHAT_EVENT_TYPES } from "@/lib/validation/dialogs-shared";
import { isDialogInView } from "./active-dialog";
import { asHidden, asMessage, asRead } from "./frames";

let count: number | null = null;
const listeners = new Set<() => void>();
// Local changes since the last read started: a read that raced one of them is read again.
let localChanges = 0;
let reading: Promise<void> | null = null;

function set(next: number) {
  const value = Math.max(0, next);
  if (value === count) return;
  count = value;
  for (const l of [...listeners]) l();
}

/** The server's total (first render), taken only once: later renders must not undo live changes. */
export function seedUnread(initial: number): void {
  if (count === null) count = Math.max(0, initial);
}

export function addUnread(delta: number): void {
  localChanges += 1;
  set((count ?? 0) + delta);
}

/** Reads the total again (after a dialog was marked read, a reconnect, a read in another tab). */
export function refreshUnread(): Promise<void> {
  reading ??= (async () => {
    try {
      for (let attempt = 0; attempt < 3; attempt += 1) {
        const before = localChanges;
        const { count: total } = await api<UnreadCount>("dialogs/unread");
        if (localChanges === before) return set(total);
      }
    } catch (err) {
      console.error("unread count refresh failed", err);
    } finally {
      reading = null;
    }
  })();
  return reading;
}

let liveHolders = 0;
let detachLive: (() => void) | null = null;

/** Listens to the socket once per tab however many badges are mounted (sidebar and phone bar). */
function holdLive(viewerId: number): () => void {
  liveHolders += 1;
  if (liveHolders === 1) {
    const client = getRealtimeClient();
    const offMessage = client.subscribe(CHAT_EVENT_TYPES.message, (event) => {
      const m = asMessage(event.data);
      if (!m || m.authorId === viewerId) return;
      // In view, the chat screen marks it read at once (and reads the total again).
      if (isDialogInView(m.dialogId)) return;
      if (m.recipientId === viewerId) addUnread(1);
      // A group's message (issue 41): whether it counts (an event line, a muted conversation) is the
      // server's rule, so the total is read again rather than guessed.
      else if (m.recipientId === null) void refreshUnread();
    });
    const offRead = client.subscribe(CHAT_EVENT_TYPES.read, (event) => {
      const r = asRead(event.data);
      if (r && r.readerId === viewerId) void refreshUnread();
    });
    // A message deleted (for both by its author, or by the viewer for themselves) may have been unread:
    // the server fixed the count in the same change, so it is read again (docs/adr/0129).
    const offUpdated = client.subscribe(CHAT_EVENT_TYPES.updated, (event) => {
      const m = asMessage(event.data);
      if (m && m.deleted && m.authorId !== viewerId && (m.recipientId === viewerId || m.recipientId === null)) void refreshUnread();
    });
    const offHidden = client.subscribe(CHAT_EVENT_TYPES.hidden, (event) => {
      const h = asHidden(event.data);
      if (h && h.accountId === viewerId) void refreshUnread();
    });
    // Added to a group with unread history, removed from one, or a group's mute switched (issue 41).
    const offChanged = client.subscribe(CHAT_EVENT_TYPES.groupChanged, () => void refreshUnread());
    // After a drop the resumed frames replay: read the total fresh instead of trusting the arithmetic.
    let wasOpen = client.getStatus() === "open";
    const offStatus = client.onStatus((status) => {
      if (status === "open" && !wasOpen) void refreshUnread();
      wasOpen = status === "open";
    });
    detachLive = () => {
      offMessage();
      offRead();
      offUpdated();
      offHidden();
      offChanged();
      offStatus();
    };
  }
  return () => {
    liveHolders -= 1;
    if (liveHolders === 0) {
      detachLive?.();
      detachLive = null;
    }
  };
}

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

/** The live total; `initial` is what the server rendered with. */
export function useUnreadTotal(viewerId: number, initial: number): number {
  if (typeof window !== "undefined") seedUnread(initial);
  useEffect(() => holdLive(viewerId), [viewerId]);
  return useSyncExternalStore(
    subscribe,
    () => count ?? initial,
    () => initial,
  );
}
