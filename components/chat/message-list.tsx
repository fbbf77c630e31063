"use client";

import { useTranslations } from "next-intl";
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { EmptyState } from "@/components/ui/empty-state";
import { MessageIcon } from "@/components/ui/icons";
import { Spinner } from "@/components/ui/spinner";
import { startsRun } from "@/lib/client/chat/group";
import { groupByDay, type LocalMessage } from "@/lib/client/chat/timeline";
import type { GroupEvent, MemberCard, MessageDto } from "@/lib/validation/dialogs";
import { ArrowDownIcon } from "./chat-icons";
import styles from "./chat.module.css";
import { useDayLabels } from "./use-day-labels";
import { EventLine, LocalBubble, MessageBubble } from "./message-bubble";
import type { MessageActions } from "./message-menu";
import { useChatFormat, useNow } from "./use-chat-format";

type Item = { kind: "server"; message: MessageDto } | { kind: "local"; message: LocalMessage };

/** What a group's history needs besides a dialog's (issue 41). */
export type GroupView = {
  /** An event line's text. */
  eventText: (event: GroupEvent) => string;
  /** The card of a message's author (its own `author`, else the members list's). */
  authorOf: (message: MessageDto) => MemberCard | null;
  /** Members whose "@Name" a text may hold. */
  mentionPeople: readonly MemberCard[];
};

/** The stored message before position `index` of a day, or null (a local one ends a run too). */
function previousServer(items: readonly Item[], index: number): MessageDto | null {
  const prev = items[index - 1];
  return prev && prev.kind === "server" ? prev.message : null;
}

/** Closer to the bottom than this counts as "reading the newest": new messages keep it in view. */
const STICK_PX = 96;

/**
 * The history, oldest at the top: day separators, infinite scroll upwards (keeping the reader's place
 * when older messages come in above), and staying at the bottom while the newest is in view.
 */
export function MessageList({
  name,
  hintName,
  groupView = null,
  viewerId,
  messages,
  local,
  hasOlder,
  older,
  onLoadOlder,
  onRetry,
  onDiscard,
  canWrite = true,
  actions,
  nameOf,
  highlightedId = null,
}: {
  /** Who the history is with (the partner's full name, a group's title), for its label. */
  name: string;
  /** The partner's first name for the empty dialog's invitation; null in a group. */
  hintName: string | null;
  groupView?: GroupView | null;
  viewerId: number;
  messages: MessageDto[];
  local: LocalMessage[];
  hasOlder: boolean;
  older: "idle" | "loading" | "error";
  onLoadOlder: () => void;
  onRetry: (clientId: string) => void;
  onDiscard: (clientId: string) => void;
  /** False when the viewer cannot write here: the empty dialog then does not invite a first message. */
  canWrite?: boolean;
  /** Reply, edit, delete and the quote's jump (docs/adr/0129). */
  actions: MessageActions;
  /** The name shown on a quote of someone's message. */
  nameOf: (accountId: number) => string;
  /** The message a quote just jumped to, shown highlighted for a moment. */
  highlightedId?: number | null;
}) {
  const t = useTranslations("im");
  const f = useChatFormat();
  const now = useNow();
  const scroller = useRef<HTMLDivElement>(null);
  const top = useRef<HTMLDivElement>(null);
  const bottom = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const anchor = useRef<{ height: number; top: number } | null>(null);
  const [unseenBelow, setUnseenBelow] = useState(false);

  const items = useMemo<Item[]>(
    () => [...messages.map((m) => ({ kind: "server" as const, message: m })), ...local.map((m) => ({ kind: "local" as const, message: m }))],
    [messages, local],
  );
  const groups = useMemo(() => groupByDay(items, (i) => i.message.time, f.timeZone), [items, f.timeZone]);
  useDayLabels(scroller, groups.map((g) => g.day).join());
  const first = messages[0]?.id;
  const last = items.at(-1);
  const lastKey = last ? (last.kind === "server" ? `s${last.message.id}` : `l${last.message.clientId}`) : "";
  const lastIsMine = !!last && (last.kind === "local" || last.message.authorId === viewerId);

  // Older messages came in above: keep the same message under the reader's eyes.
  useLayoutEffect(() => {
    const el = scroller.current;
    if (el && anchor.current) {
      el.scrollTop = anchor.current.top + (el.scrollHeight - anchor.current.height);
      anchor.current = null;
    }
  }, [first]);

  // A new message at the bottom: follow it when the reader was there or wrote it; otherwise offer a jump.
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    if (atBottom.current || lastIsMine) {
      el.scrollTop = el.scrollHeight;
      atBottom.current = true;
      setUnseenBelow(false);
    } else setUnseenBelow(true);
  }, [lastKey, lastIsMine]);

  // The top of the history in view (or near it): the page before.
  useEffect(() => {
    const el = scroller.current;
    const sentinel = top.current;
    if (!el || !sentinel || !hasOlder || older !== "idle") return;
    const io = new IntersectionObserver(
      (entries) => {
        if (!entries.some((e) => e.isIntersecting)) return;
        anchor.current = { height: el.scrollHeight, top: el.scrollTop };
        onLoadOlder();
      },
      { root: el, rootMargin: "240px 0px 0px 0px" },
    );
    io.observe(sentinel);
    return () => io.disconnect();
  }, [hasOlder, older, onLoadOlder]);

  // Whether the reader is at the newest: a sentinel after the last message, watched by the browser
  // between frames. Reading scrollHeight in a scroll handler forced a layout of the whole history on
  // every scroll event, the one the first scroll to the bottom sends included (docs/adr/0154).
  useEffect(() => {
    const el = scroller.current;
    const sentinel = bottom.current;
    if (!el || !sentinel) return;
    const io = new IntersectionObserver(
      (entries) => {
        const entry = entries.at(-1);
        if (!entry) return;
        atBottom.current = entry.isIntersecting;
        if (entry.isIntersecting) setUnseenBelow(false);
      },
      { root: el, rootMargin: `0px 0px ${STICK_PX}px 0px` },
    );
    io.observe(sentinel);
    return () => io.disconnect();
  }, []);

  const jump = () => {
    const el = scroller.current;
    if (el) el.scrollTo({ top: el.scrollHeight, behavior: "smooth" });
    setUnseenBelow(false);
  };

  return (
    <div className={styles.historyWrap}>
      <div
        ref={scroller}
        className={styles.history}
        role="log"
        aria-label={t("historyLabel", { name })}
        aria-live="polite"
        aria-relevant="additions"
        // Keyboard users scroll the history with the arrow keys once it has focus.
        tabIndex={0}
        data-testid="chat-history"
      >
        <div ref={top} className={styles.topSentinel} aria-hidden="true" />
        {older === "loading" ? (
          <div className={styles.olderState}>
            <Spinner label={t("loadingOlder")} />
          </div>
        ) : older === "error" ? (
          <div className={styles.olderState}>
            <span>{t("olderFailed")}</span>
            <button
              type="button"
              className={styles.textButton}
              onClick={() => {
                const el = scroller.current;
                if (el) anchor.current = { height: el.scrollHeight, top: el.scrollTop };
                onLoadOlder();
              }}
            >
              {t("tryAgain")}
            </button>
          </div>
        ) : null}
        {items.length === 0 ? (
          <div className={styles.emptyDialog} data-testid="chat-empty">
            <EmptyState compact icon={<MessageIcon size={24} />} title={t("emptyDialog")} text={canWrite && hintName ? t("emptyDialogHint", { name: hintName }) : undefined} />
          </div>
        ) : (
          groups.map((g) => (
            <div key={g.day} className={styles.day} role="group" aria-label={f.dayLabel(g.items[0].message.time, now)}>
              <div className={styles.dayStart} data-day-start="" aria-hidden="true" />
              <div className={styles.dayLabel} aria-hidden="true" data-testid="chat-day-label">
                <span>{f.dayLabel(g.items[0].message.time, now)}</span>
              </div>
              {g.items.map((i, index) =>
                i.kind === "server" ? (
                  groupView && i.message.event ? (
                    <EventLine key={`s${i.message.id}`} message={i.message} text={groupView.eventText(i.message.event)} />
                  ) : (
                    <MessageBubble
                      key={`s${i.message.id}`}
                      message={i.message}
                      mine={i.message.authorId === viewerId}
                      actions={actions}
                      nameOf={nameOf}
                      highlighted={i.message.id === highlightedId}
                      author={groupView && i.message.authorId !== viewerId && startsRun(previousServer(g.items, index), i.message) ? groupView.authorOf(i.message) : null}
                      mentionPeople={groupView?.mentionPeople ?? null}
                    />
                  )
                ) : (
                  <LocalBubble key={`l${i.message.clientId}`} message={i.message} onRetry={onRetry} onDiscard={onDiscard} nameOf={nameOf} />
                ),
              )}
            </div>
          ))
        )}
        <div ref={bottom} className={styles.bottomSentinel} aria-hidden="true" />
      </div>
      {unseenBelow ? (
        <button type="button" className={styles.jump} onClick={jump} aria-label={t("jumpToNew")} title={t("jumpToNew")}>
          <ArrowDownIcon size={20} />
        </button>
      ) : null}
    </div>
  );
}
