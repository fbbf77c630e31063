"use client";

import { useTranslations } from "next-intl";
import Link from "@/components/ui/link";
import { useEffect, useState, type RefObject } from "react";
import { FriendRequestAnswer } from "@/components/notifications/friend-request-answer";
import { NotificationEntry } from "@/components/notifications/notification-entry";
import entry from "@/components/notifications/notifications.module.css";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { BellIcon } from "@/components/ui/icons";
import { useNotificationPages } from "@/lib/client/notifications";
import { BELL_SHOWN, NOTIFICATION_PAGE_SIZE } from "@/lib/validation/notifications-shared";
import styles from "./notification-bell.module.css";

/**
 * The open bell's panel (spec section 2): page 0 newest first, 3 shown, "show more" 20 more (pages of 20),
 * "mark all as read". A module of its own, mounted while the panel is open and loaded when it first opens
 * (with Radix's popover): no page carries the list, its entries and their paging in its first load, and a
 * closed bell runs none of it (docs/adr/0143).
 */
export function BellPanel({
  unread,
  refresh,
  marked,
  onClose,
}: {
  unread: number;
  /** Re-reads the badge's count. */
  refresh: () => void;
  /** The ids marked read while this page is open (each once), kept by the bell across openings. */
  marked: RefObject<Set<number>>;
  onClose: () => void;
}) {
  const t = useTranslations("bell");
  const tn = useTranslations("notifications");
  const [shown, setShown] = useState(BELL_SHOWN);
  // "Mark all as read" clears the panel (spec section 2): what was in it stays on /push only.
  const [cleared, setCleared] = useState<ReadonlySet<number>>(new Set());
  const list = useNotificationPages(true);
  const items = list.items.filter((n) => !cleared.has(n.id));
  const visible = items.slice(0, shown);
  const more = items.length > shown || (list.hasMore && cleared.size === 0);

  // A reopening shows the list as it was loaded (entries marked read keep their unread look until the list is
  // loaded again, so one sees what was new), as the bell did when the list lived in it.

  // Opening the bell reads what it shows (issue 27): the unread entries on screen are marked read once
  // each (PUT notifications/readed {ids}), and the badge takes the count the server answers.
  const toMark = !list.isLoading ? visible.filter((n) => !n.isRead).map((n) => n.id).join(",") : "";
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

  return (
    <>
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
          <ul className={entry.list}>
            {visible.map((n) => (
              <li key={n.id}>
                <NotificationEntry n={n} onOpen={onClose} />
                <FriendRequestAnswer n={n} />
              </li>
            ))}
          </ul>
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
        <Link href="/push" className={styles.all} onClick={onClose}>
          {t("all")}
        </Link>
      </div>
    </>
  );
}
