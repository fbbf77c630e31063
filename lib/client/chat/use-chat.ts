"use client";
/**
 * The state of one open dialog: its history (first page from the server render, older pages by
 * keyset, live MESSAGE frames), optimistic sending with retry, read receipts both ways, the partner's
 * typing and presence. Rendering lives in components/chat.
 */
import { useCallback, useEffect, useEffectEvent, useRef, useState } from "react";
import { api, ApiError } from "@/lib/client/api";
import { getRealtimeClient } from "@/lib/client/socket";
import { useRealtimeEvent } from "@/lib/client/use-realtime";
import type { DialogDto, MessageDto, MessageHiddenData, MessagePage, MessageReplyPreview } from "@/lib/validation/dialogs";
import { CHAT_EVENT_TYPES, MESSAGE_PAGE_DEFAULT, TYPING_REPEAT_MS, TYPING_TTL_MS } from "@/lib/validation/dialogs-shared";
import { isDialogInView, setActiveDialog } from "./active-dialog";
import { forgetSent, keepUnsent, unsentIn } from "@/lib/client/outbox";
import { newClientId } from "./client-id";
import { asHidden, asMessage, asPresence, asRead, asTyping } from "./frames";
import { applyHidden, applyRead, applyUpdate, compareMessages, mergeMessages, withoutConfirmed, type LocalMessage } from "./timeline";
import { refreshUnread } from "./unread";

type Presence = { isOnline: boolean; lastOnlineTime: string | null };

/** How long a failed read receipt waits before it is sent again while the dialog is in view. */
const READ_RETRY_MS = 2_000;

/** Refusals worth retrying as they are: the line, the server, or a limit that passes. */
function isTransient(err: unknown): boolean {
  return !(err instanceof ApiError) || err.status >= 500 || err.status === 408 || err.status === 429;
}

export function useChat({
  dialog,
  initialPage,
  viewerId,
  describeError,
}: {
  dialog: DialogDto;
  initialPage: MessagePage;
  viewerId: number;
  /** Turns a refusal into the text shown under a failed message. */
  describeError: (err: unknown) => string | null;
}) {
  const dialogId = dialog.id;
  // null in a group (issue 41): presence is a personal dialog's; typing comes from any member.
  const partnerId = dialog.partner?.id ?? null;
  const [messages, setMessages] = useState<MessageDto[]>(() => [...initialPage.content].sort(compareMessages));
  const [local, setLocal] = useState<LocalMessage[]>([]);
  const [hasOlder, setHasOlder] = useState(initialPage.content.length < initialPage.totalElements);
  const [older, setOlder] = useState<"idle" | "loading" | "error">("idle");
  const [presence, setPresence] = useState<Presence>({
    isOnline: dialog.partner?.isOnline ?? false,
    lastOnlineTime: dialog.partner?.lastOnlineTime ?? null,
  });
  /** Who types here now (account ids, in the order they started); each drops out TYPING_TTL_MS after their last frame. */
  const [typers, setTypers] = useState<number[]>([]);
  const typingTimers = useRef(new Map<number, number>());
  const lastTypingSent = useRef(0);
  const needsRead = useRef(dialog.unreadCount > 0);
  const reading = useRef<Promise<void> | null>(null);
  const readRetry = useRef<number | undefined>(undefined);

  // ---- read (spec section 4: opening a dialog resets its unread count) ----
  const markRead = useCallback(() => {
    needsRead.current = false;
    reading.current ??= api(`dialogs/${dialogId}`, { method: "PUT" })
      .then(() => refreshUnread())
      .catch((err) => {
        needsRead.current = true;
        console.error("marking the dialog read failed", err);
        // Offline, the browser's "online" event sends it again (below). A failure that ends after the line
        // came back (the request left while it was down) has no such event left: it is tried again shortly.
        if (typeof navigator === "undefined" || navigator.onLine) {
          window.clearTimeout(readRetry.current);
          readRetry.current = window.setTimeout(() => {
            if (needsRead.current && isDialogInView(dialogId)) void markRead();
          }, READ_RETRY_MS);
        }
      })
      .finally(() => {
        reading.current = null;
      });
    return reading.current;
  }, [dialogId]);
  useEffect(() => () => window.clearTimeout(readRetry.current), []);

  useEffect(() => {
    const release = setActiveDialog(dialogId);
    if (needsRead.current && document.visibilityState === "visible") void markRead();
    const onVisible = () => {
      if (document.visibilityState === "visible" && needsRead.current) void markRead();
    };
    document.addEventListener("visibilitychange", onVisible);
    return () => {
      release();
      document.removeEventListener("visibilitychange", onVisible);
    };
  }, [dialogId, markRead]);

  // ---- live frames ----
  const stopTyping = useCallback((accountId: number) => {
    const timer = typingTimers.current.get(accountId);
    if (timer !== undefined) window.clearTimeout(timer);
    typingTimers.current.delete(accountId);
    setTypers((prev) => (prev.includes(accountId) ? prev.filter((id) => id !== accountId) : prev));
  }, []);
  useEffect(() => {
    const timers = typingTimers.current;
    return () => {
      for (const timer of timers.values()) window.clearTimeout(timer);
      timers.clear();
    };
  }, []);

  useRealtimeEvent(CHAT_EVENT_TYPES.message, (event) => {
    const m = asMessage(event.data);
    if (!m || m.dialogId !== dialogId) return;
    setMessages((prev) => mergeMessages(prev, [m]));
    if (m.authorId === viewerId) {
      if (m.clientId) setLocal((prev) => withoutConfirmed(prev, [m]));
      return;
    }
    stopTyping(m.authorId);
    if (m.authorId === partnerId) setPresence((p) => (p.isOnline ? p : { isOnline: true, lastOnlineTime: m.time }));
    if (isDialogInView(dialogId)) void markRead();
    else needsRead.current = true;
  });

  // An edit or a deletion for both (docs/adr/0129), and the viewer's own deletion from another tab.
  useRealtimeEvent(CHAT_EVENT_TYPES.updated, (event) => {
    const m = asMessage(event.data);
    if (m && m.dialogId === dialogId) setMessages((prev) => applyUpdate(prev, m));
  });

  useRealtimeEvent(CHAT_EVENT_TYPES.hidden, (event) => {
    const h = asHidden(event.data);
    if (h && h.dialogId === dialogId && h.accountId === viewerId) setMessages((prev) => applyHidden(prev, h.messageId));
  });

  useRealtimeEvent(CHAT_EVENT_TYPES.read, (event) => {
    const r = asRead(event.data);
    if (r && r.dialogId === dialogId) setMessages((prev) => applyRead(prev, r));
  });

  useRealtimeEvent("TYPING", (event) => {
    const d = asTyping(event.data);
    if (!d || d.dialogId !== dialogId || d.accountId === viewerId || (partnerId !== null && d.accountId !== partnerId)) return;
    const who = d.accountId;
    setTypers((prev) => (prev.includes(who) ? prev : [...prev, who]));
    if (who === partnerId) setPresence((p) => (p.isOnline ? p : { isOnline: true, lastOnlineTime: new Date().toISOString() }));
    const timer = typingTimers.current.get(who);
    if (timer !== undefined) window.clearTimeout(timer);
    typingTimers.current.set(who, window.setTimeout(() => stopTyping(who), TYPING_TTL_MS));
  });

  useRealtimeEvent("PRESENCE", (event) => {
    const p = asPresence(event.data);
    if (p && partnerId !== null && p.accountId === partnerId) setPresence({ isOnline: p.isOnline, lastOnlineTime: p.lastOnlineTime });
  });

  // ---- history ----
  const loadOlder = useCallback(async () => {
    if (!hasOlder || older === "loading") return;
    const oldest = messages[0];
    setOlder("loading");
    try {
      const query = new URLSearchParams({ dialogId: String(dialogId), size: String(MESSAGE_PAGE_DEFAULT), sort: "time,desc" });
      if (oldest) query.set("beforeId", String(oldest.id));
      const page = await api<MessagePage>(`dialogs/messages?${query}`);
      setMessages((prev) => mergeMessages(prev, page.content));
      setHasOlder(page.content.length >= MESSAGE_PAGE_DEFAULT);
      setOlder("idle");
    } catch (err) {
      console.error("loading older messages failed", err);
      setOlder("error");
    }
  }, [dialogId, hasOlder, messages, older]);

  /** After a drop: the newest page again (resume covers messages; this also catches read ticks). */
  const catchUp = useEffectEvent(async () => {
    try {
      const query = new URLSearchParams({ dialogId: String(dialogId), size: String(MESSAGE_PAGE_DEFAULT), sort: "time,desc" });
      const page = await api<MessagePage>(`dialogs/messages?${query}`);
      setMessages((prev) => mergeMessages(prev, page.content));
      setLocal((prev) => withoutConfirmed(prev, page.content));
      if (page.content.some((m) => m.authorId !== viewerId && m.readStatus === "SENT")) {
        if (isDialogInView(dialogId)) void markRead();
        else needsRead.current = true;
      }
    } catch (err) {
      console.error("catching up failed", err);
    }
  });

  // Left or removed from a group (issue 41): the newest page again, so the line about it is in view
  // whether or not its frame reached this tab before the frames stopped.
  const left = dialog.left;
  useEffect(() => {
    if (!left) return;
    let cancelled = false;
    const query = new URLSearchParams({ dialogId: String(dialogId), size: String(MESSAGE_PAGE_DEFAULT), sort: "time,desc" });
    api<MessagePage>(`dialogs/messages?${query}`)
      .then((page) => !cancelled && setMessages((prev) => mergeMessages(prev, page.content)))
      .catch((err: unknown) => console.error("reading the history after leaving failed", err));
    return () => {
      cancelled = true;
    };
  }, [left, dialogId]);

  // ---- sending ----
  const post = useCallback(
    async (clientId: string, text: string, replyTo: MessageReplyPreview | null, images: string[], mentions: number[]) => {
      const body = {
        messageText: text,
        clientId,
        ...(replyTo ? { replyTo: replyTo.id } : {}),
        ...(images.length > 0 ? { images } : {}),
        ...(mentions.length > 0 ? { mentions } : {}),
      };
      try {
        const message = await api<MessageDto>(`dialogs/${dialogId}/messages`, { method: "POST", body });
        setMessages((prev) => mergeMessages(prev, [message]));
        setLocal((prev) => prev.filter((l) => l.clientId !== clientId));
        forgetSent(clientId);
      } catch (err) {
        // No line (or no server): kept on the device, so closing Krug loses nothing (docs/adr/0179).
        if (!(err instanceof ApiError) || err.status >= 500) {
          void keepUnsent({ clientId, accountId: viewerId, dialogId, body, savedAt: Date.now(), replyPreview: replyTo });
        }
        // A limit (429) is said with its text (ADR 0109); it passes by itself, so the person retries.
        const error = err instanceof ApiError && err.status === 429 ? describeError(err) : isTransient(err) ? null : describeError(err);
        setLocal((prev) => prev.map((l) => (l.clientId === clientId ? { ...l, state: "failed", error } : l)));
      }
    },
    [dialogId, describeError, viewerId],
  );

  // What this person wrote here without a line before Krug was closed: shown as not sent until it goes
  // (the outbox sender or the "online" retry below sends it; its clientId keeps it one message).
  useEffect(() => {
    let cancelled = false;
    void unsentIn(viewerId, dialogId).then((items) => {
      if (cancelled || items.length === 0) return;
      setLocal((prev) => {
        const known = new Set(prev.map((l) => l.clientId));
        const kept: LocalMessage[] = items
          .filter((i) => !known.has(i.clientId))
          .map((i) => ({
            clientId: i.clientId,
            text: i.body.messageText,
            time: new Date(i.savedAt).toISOString(),
            state: "failed",
            error: null,
            replyTo: (i.replyPreview as MessageReplyPreview | null | undefined) ?? null,
            images: i.body.images ?? [],
            mentions: i.body.mentions ?? [],
          }));
        return kept.length > 0 ? [...prev, ...kept] : prev;
      });
    });
    return () => {
      cancelled = true;
    };
  }, [viewerId, dialogId]);

  const send = useCallback(
    (text: string, replyTo: MessageReplyPreview | null = null, images: string[] = [], mentions: number[] = []) => {
      const clientId = newClientId();
      setLocal((prev) => [...prev, { clientId, text, time: new Date().toISOString(), state: "pending", error: null, replyTo, images, mentions }]);
      lastTypingSent.current = 0;
      void post(clientId, text, replyTo, images, mentions);
    },
    [post],
  );

  // ---- changes (docs/adr/0129): the answer is applied at once; the event then finds it already there ----
  const edit = useCallback(
    async (messageId: number, text: string) => {
      const message = await api<MessageDto>(`dialogs/${dialogId}/messages/${messageId}`, { method: "PUT", body: { messageText: text } });
      setMessages((prev) => applyUpdate(prev, message));
    },
    [dialogId],
  );

  const remove = useCallback(
    async (messageId: number, forEveryone: boolean) => {
      const answer = await api<MessageDto | MessageHiddenData>(`dialogs/${dialogId}/messages/${messageId}?forEveryone=${forEveryone}`, { method: "DELETE" });
      setMessages((prev) => ("messageId" in answer ? applyHidden(prev, messageId) : applyUpdate(prev, answer)));
    },
    [dialogId],
  );

  const localRef = useRef(local);
  useEffect(() => {
    localRef.current = local;
  }, [local]);

  const retry = useCallback(
    (clientId: string) => {
      const item = localRef.current.find((l) => l.clientId === clientId && l.state === "failed");
      if (!item) return;
      // The same clientId: if the first try did reach the server, this one answers the stored message.
      localRef.current = localRef.current.map((l) => (l === item ? { ...l, state: "pending", error: null } : l));
      setLocal((prev) => prev.map((l) => (l.clientId === clientId ? { ...l, state: "pending", error: null } : l)));
      void post(clientId, item.text, item.replyTo ?? null, item.images ?? [], item.mentions ?? []);
    },
    [post],
  );

  const discard = useCallback((clientId: string) => {
    setLocal((prev) => prev.filter((l) => l.clientId !== clientId));
    forgetSent(clientId);
  }, []);

  // Back online (the browser's event or the socket reopening): catch up, resend what the line lost, and
  // mark read what arrived while the line was down. A message can reach an open socket while requests
  // fail (the socket outlives a short drop), so its read receipt failed too and is owed now.
  const resendLost = useEffectEvent(() => {
    for (const l of localRef.current) if (l.state === "failed" && l.error === null) retry(l.clientId);
    if (needsRead.current && isDialogInView(dialogId)) void markRead();
  });
  useEffect(() => {
    const client = getRealtimeClient();
    let wasOpen = client.getStatus() === "open";
    const off = client.onStatus((status) => {
      if (status === "open" && !wasOpen) {
        void catchUp();
        resendLost();
      }
      wasOpen = status === "open";
    });
    const online = () => resendLost();
    window.addEventListener("online", online);
    return () => {
      off();
      window.removeEventListener("online", online);
    };
  }, []);

  /** Tells the partner "typing" at most every TYPING_REPEAT_MS while the person types. */
  const notifyTyping = useCallback(() => {
    const now = Date.now();
    if (now - lastTypingSent.current < TYPING_REPEAT_MS) return;
    if (getRealtimeClient().send({ type: "TYPING", dialogId })) lastTypingSent.current = now;
  }, [dialogId]);

  return { messages, local, hasOlder, older, loadOlder, send, retry, discard, edit, remove, presence, typing: typers.length > 0, typers, notifyTyping };
}
