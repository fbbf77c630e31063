"use client";

import { useTranslations } from "next-intl";
import { useCallback, useEffect, useRef, useState } from "react";
import { Button, ButtonLink } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { MessageIcon } from "@/components/ui/icons";
import { api } from "@/lib/client/api";
import { activeDialogId } from "@/lib/client/chat/active-dialog";
import { asDialogChanged, asHidden, asMessage, asPresence, asRead, asTyping } from "@/lib/client/chat/frames";
import { applyMessageToDialogs, applyPresenceToDialogs, applyReadToDialogs, applyUpdateToDialogs, mergeDialogs } from "@/lib/client/chat/timeline";
import { getRealtimeClient } from "@/lib/client/socket";
import { useRealtimeEvent } from "@/lib/client/use-realtime";
import type { DialogDto, DialogPage } from "@/lib/validation/dialogs";
import { CHAT_EVENT_TYPES, DIALOG_PAGE_DEFAULT, TYPING_TTL_MS } from "@/lib/validation/dialogs-shared";
import { DialogRow } from "./dialog-row";
import styles from "./dialog-list.module.css";
import { useNow } from "./use-chat-format";

const pagePath = (page: number) => `dialogs?${new URLSearchParams({ page: String(page), size: String(DIALOG_PAGE_DEFAULT), sort: "unreadCount,desc" })}`;

/**
 * /im: the dialogs, unread first, then the newest message (the server's order, kept live): a
 * message moves its dialog up and counts as unread (spec section 4), a read resets it, a new dialog
 * appears, presence and typing show on the row.
 */
export function DialogList({ initialPage, viewerId }: { initialPage: DialogPage; viewerId: number }) {
  const t = useTranslations("im");
  const [dialogs, setDialogs] = useState<DialogDto[]>(initialPage.content);
  const [nextPage, setNextPage] = useState(initialPage.number + 1);
  const [hasMore, setHasMore] = useState(initialPage.number + 1 < initialPage.totalPages);
  const [loading, setLoading] = useState<"idle" | "loading" | "error">("idle");
  const [typing, setTyping] = useState<Record<number, number>>({});
  // Who typed last in each dialog (a group's row names them, issue 41).
  const [typist, setTypist] = useState<Record<number, number>>({});
  const now = useNow();
  const more = useRef<HTMLDivElement>(null);
  const shown = useRef(dialogs);
  useEffect(() => {
    shown.current = dialogs;
  }, [dialogs]);

  const refreshFirst = useCallback(async () => {
    try {
      const page = await api<DialogPage>(pagePath(0));
      setDialogs((prev) => mergeDialogs(prev, page.content));
    } catch (err) {
      console.error("refreshing the dialog list failed", err);
    }
  }, []);

  useRealtimeEvent(CHAT_EVENT_TYPES.message, (event) => {
    const m = asMessage(event.data);
    if (!m) return;
    setDialogs((prev) => applyMessageToDialogs(prev, m, viewerId, activeDialogId()).dialogs);
    setTyping((prev) => (prev[m.dialogId] && m.authorId !== viewerId ? { ...prev, [m.dialogId]: 0 } : prev));
    // A dialog not on screen yet (new, or beyond the loaded pages): read the top of the list again.
    if (!shown.current.some((d) => d.id === m.dialogId)) void refreshFirst();
  });

  // An edit changes the preview's text; a deletion (for both, or the viewer's own) the preview and maybe the count.
  useRealtimeEvent(CHAT_EVENT_TYPES.updated, (event) => {
    const m = asMessage(event.data);
    if (!m) return;
    const { dialogs: next, refresh } = applyUpdateToDialogs(shown.current, m);
    if (next !== shown.current) setDialogs(next);
    if (refresh) void refreshFirst();
  });

  useRealtimeEvent(CHAT_EVENT_TYPES.hidden, (event) => {
    const h = asHidden(event.data);
    if (h && h.accountId === viewerId) void refreshFirst();
  });

  // A group changed (title, photo, members, the viewer's membership or mute; issue 41): its row is read again.
  useRealtimeEvent(CHAT_EVENT_TYPES.groupChanged, (event) => {
    const c = asDialogChanged(event.data);
    if (!c) return;
    api<DialogDto>(`dialogs/${c.dialogId}`)
      .then((dialog) => setDialogs((prev) => mergeDialogs(prev, [dialog])))
      .catch((err: unknown) => console.error("reading the changed dialog failed", err));
  });

  useRealtimeEvent(CHAT_EVENT_TYPES.read, (event) => {
    const r = asRead(event.data);
    if (r) setDialogs((prev) => applyReadToDialogs(prev, r, viewerId));
  });

  useRealtimeEvent("PRESENCE", (event) => {
    const p = asPresence(event.data);
    if (p) setDialogs((prev) => applyPresenceToDialogs(prev, p));
  });

  useRealtimeEvent("TYPING", (event) => {
    const d = asTyping(event.data);
    if (!d || d.accountId === viewerId) return;
    const until = Date.now() + TYPING_TTL_MS;
    setTyping((prev) => ({ ...prev, [d.dialogId]: until }));
    setTypist((prev) => (prev[d.dialogId] === d.accountId ? prev : { ...prev, [d.dialogId]: d.accountId }));
    window.setTimeout(() => setTyping((prev) => (prev[d.dialogId] === until ? { ...prev, [d.dialogId]: 0 } : prev)), TYPING_TTL_MS);
  });

  // Back after a drop: the top of the list again (counts and order as the server has them).
  useEffect(() => {
    const client = getRealtimeClient();
    let wasOpen = client.getStatus() === "open";
    return client.onStatus((status) => {
      if (status === "open" && !wasOpen) void refreshFirst();
      wasOpen = status === "open";
    });
  }, [refreshFirst]);

  const loadMore = useCallback(async () => {
    if (!hasMore || loading === "loading") return;
    setLoading("loading");
    try {
      const page = await api<DialogPage>(pagePath(nextPage));
      setDialogs((prev) => mergeDialogs(prev, page.content));
      setNextPage(page.number + 1);
      setHasMore(page.number + 1 < page.totalPages);
      setLoading("idle");
    } catch (err) {
      console.error("loading dialogs failed", err);
      setLoading("error");
    }
  }, [hasMore, loading, nextPage]);

  // Scrolling to the end loads the next page; the button does the same for keyboards.
  useEffect(() => {
    const el = more.current;
    if (!el || !hasMore || loading !== "idle") return;
    const io = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) void loadMore();
    });
    io.observe(el);
    return () => io.disconnect();
  }, [hasMore, loading, loadMore]);

  // Empty until the first message: still listening, so a new dialog appears without a reload.
  if (dialogs.length === 0) {
    return (
      <EmptyState icon={<MessageIcon size={28} />} title={t("emptyTitle")} text={t("emptyText")}>
        <ButtonLink href="/friends">{t("toFriends")}</ButtonLink>
      </EmptyState>
    );
  }
  return (
    <>
      <ul className={styles.list} aria-label={t("listLabel")} data-testid="dialog-list">
        {dialogs.map((d) => (
          <li key={d.id}>
            <DialogRow dialog={d} viewerId={viewerId} typing={typing[d.id] ? (typist[d.id] ?? 0) : null} now={now} />
          </li>
        ))}
      </ul>
      {hasMore ? (
        <div ref={more} className={styles.more}>
          {loading === "error" ? <p className={styles.error}>{t("loadFailed")}</p> : null}
          <Button variant="secondary" onClick={() => void loadMore()} disabled={loading === "loading"}>
            {loading === "error" ? t("tryAgain") : t("loadMore")}
          </Button>
        </div>
      ) : null}
    </>
  );
}
