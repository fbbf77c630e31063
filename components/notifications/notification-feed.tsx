"use client";

import { useTranslations } from "next-intl";
import { useEffect, useRef } from "react";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { BellIcon } from "@/components/ui/icons";
import { Spinner } from "@/components/ui/spinner";
import { useNotificationPages, type NotificationPage } from "@/lib/client/notifications";
import { NotificationEntry } from "./notification-entry";
import styles from "./notifications.module.css";

/**
 * /push: every notification newest first, the next page of 20 loading as the end scrolls into view.
 * Page 0 comes rendered from the server (`first`, with the server's `renderedAt` so its "5 минут назад"
 * hydrates as rendered), so the first paint needs no request.
 */
export function NotificationFeed({ first, renderedAt }: { first?: NotificationPage; renderedAt?: number }) {
  const t = useTranslations("notifications");
  const tp = useTranslations("push");
  const list = useNotificationPages(true, first);
  const sentinel = useRef<HTMLDivElement>(null);
  const { hasMore, loadingMore, loadMore } = list;

  useEffect(() => {
    const el = sentinel.current;
    if (!el || !hasMore) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting) && !loadingMore) void loadMore();
    }, { rootMargin: "200px" });
    observer.observe(el);
    return () => observer.disconnect();
  }, [hasMore, loadingMore, loadMore]);

  if (list.isLoading) return <Spinner label={t("loading")} />;
  if (list.error && list.items.length === 0) {
    return (
      <div className={styles.state} role="alert">
        {t("loadFailed")} <Button variant="ghost" onClick={() => void list.reload()}>{t("retry")}</Button>
      </div>
    );
  }
  if (list.items.length === 0) return <EmptyState icon={<BellIcon size={28} />} title={tp("emptyTitle")} text={tp("emptyText")} />;
  return (
    <>
      <ul className={`${styles.list} ${styles.feed}`} data-testid="push-list">
        {list.items.map((n) => (
          <li key={n.id}>
            <NotificationEntry n={n} renderedAt={renderedAt} />
          </li>
        ))}
      </ul>
      {hasMore ? (
        <div ref={sentinel} className={styles.more}>
          {loadingMore ? <Spinner label={t("loading")} /> : <Button variant="secondary" onClick={() => void loadMore()}>{t("showMore")}</Button>}
        </div>
      ) : null}
    </>
  );
}
