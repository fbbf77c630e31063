"use client";

import dynamic from "next/dynamic";
import { useTranslations } from "next-intl";
import Link from "@/components/ui/link";
import { useEffect, useRef, useState } from "react";
import entry from "@/components/notifications/notifications.module.css";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { BellIcon } from "@/components/ui/icons";
import { LazyPopover } from "@/components/ui/lazy-radix";
import menu from "@/components/ui/menu.module.css";
import { useNotificationCount, useNotificationPages } from "@/lib/client/notifications";
import { BELL_SHOWN, NOTIFICATION_PAGE_SIZE } from "@/lib/validation/notifications-shared";
import styles from "./notification-bell.module.css";
import switches from "./switches.module.css";

// The entries (texts, times, friend-request answers) load when the panel first opens; until they are
// there the panel says it is loading, as it does while the list itself loads (docs/adr/0143).
const loadEntries = () => import("./bell-entries").then((m) => m.BellEntries);
const BellEntries = dynamic(loadEntries, { ssr: false, loading: EntriesLoading });

function EntriesLoading() {
  const tn = useTranslations("notifications");
  return <p className={entry.state}>{tn("loading")}</p>;
}

/**
 * The bell of the top bar (spec section 2): a live badge with the unread count (hidden at 0); opening
 * loads page 0 newest first and shows 3, "show more" 20 more (loading pages of 20); "mark all as read"
 * clears the list's unread marks and the badge; closing re-reads the count.
 */
export function NotificationBell({ initialCount }: { initialCount?: number }) {
  const t = useTranslations("bell");
  const tn = useTranslations("notifications");
  const [open, setOpen] = useState(false);
  const [shown, setShown] = useState(BELL_SHOWN);
  // "Mark all as read" clears the panel (spec section 2): what was in it stays on /push only.
  const [cleared, setCleared] = useState<ReadonlySet<number>>(new Set());
  const { count: unread, refresh } = useNotificationCount(initialCount);
  const list = useNotificationPages(open);
  const label = unread > 0 ? t("labelUnread", { count: unread }) : t("label");
  const items = list.items.filter((n) => !cleared.has(n.id));
  const visible = items.slice(0, shown);
  const more = items.length > shown || (list.hasMore && cleared.size === 0);

  // Opening the bell reads what it shows (issue 27): the unread entries on screen are marked read once
  // each (PUT notifications/readed {ids}), and the badge takes the count the server answers.
  const marked = useRef<Set<number>>(new Set());
  const toMark = open && !list.isLoading ? visible.filter((n) => !n.isRead).map((n) => n.id).join(",") : "";
  useEffect(() => {
    if (!toMark) return;
    const ids = toMark.split(",").map(Number).filter((id) => !marked.current.has(id));
    if (ids.length === 0) return;
    for (const id of ids) marked.current.add(id);
    list
      .markRead(ids)
      .catch((err: unknown) => console.error("notifications: mark read failed", err)) // spec section 8: logged only
      .finally(() => void refresh());
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the ids are the trigger; list and refresh change every render
  }, [toMark]);

  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (next) {
      void loadEntries();
      setShown(BELL_SHOWN);
      setCleared(new Set());
      void list.reload();
    } else void refresh();
  };
  const showMore = () => {
    const want = shown + NOTIFICATION_PAGE_SIZE;
    setShown(want);
    if (items.length < want && list.hasMore) void list.loadMore();
  };
  const markAll = async () => {
    const ids = new Set(list.items.map((n) => n.id));
    try {
      await list.markAllRead();
      setCleared(ids);
    } catch (err) {
      console.error("notifications: mark read failed", err); // spec section 8: logged only
    }
    void refresh();
  };
  const trigger = {
    className: `${switches.trigger} ${styles.trigger}`,
    "aria-label": label,
    title: t("label"),
    "data-testid": "bell",
    children: (
      <>
        <BellIcon />
        {unread > 0 ? (
          <span className={styles.badge} aria-hidden="true" data-testid="bell-badge">
            {unread > 99 ? "99+" : unread}
          </span>
        ) : null}
      </>
    ),
  };

  return (
    <LazyPopover trigger={trigger} open={open} onOpenChange={onOpenChange}>
      {(Popover) => (
        <Popover.Portal>
          <Popover.Content className={`${menu.content} ${styles.panel}`} align="end" sideOffset={8} aria-label={t("title")} data-testid="bell-panel">
            <div className={styles.head}>
              <h2 className={styles.title}>{t("title")}</h2>
              {visible.some((n) => !n.isRead) || unread > 0 ? (
                <button type="button" className={styles.markAll} onClick={() => void markAll()} data-testid="bell-mark-all">
                  {tn("markAllRead")}
                </button>
              ) : null}
            </div>
            <div className={styles.scroll}>
              {list.isLoading ? (
                <p className={entry.state}>{tn("loading")}</p>
              ) : list.error && list.items.length === 0 ? (
                <p className={entry.state} role="alert">
                  {tn("loadFailed")}{" "}
                  <button type="button" className={styles.markAll} onClick={() => void list.reload()}>
                    {tn("retry")}
                  </button>
                </p>
              ) : visible.length === 0 ? (
                <EmptyState compact headingLevel={3} icon={<BellIcon size={24} />} title={t("emptyTitle")} text={t("emptyText")} />
              ) : (
                <BellEntries items={visible} onOpen={() => onOpenChange(false)} />
              )}
              {more && visible.length > 0 ? (
                <div className={entry.more}>
                  <Button variant="secondary" onClick={showMore} disabled={list.loadingMore} data-testid="bell-more">
                    {tn("showMore")}
                  </Button>
                </div>
              ) : null}
            </div>
            <div className={styles.foot}>
              <Link href="/push" className={styles.all} onClick={() => onOpenChange(false)}>
                {t("all")}
              </Link>
            </div>
          </Popover.Content>
        </Popover.Portal>
      )}
    </LazyPopover>
  );
}
