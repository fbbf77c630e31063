"use client";

import dynamic from "next/dynamic";
import { useTranslations } from "next-intl";
import { useRef, useState } from "react";
import entry from "@/components/notifications/notifications.module.css";
import { BellIcon } from "@/components/ui/icons";
import { LazyPopover } from "@/components/ui/lazy-radix";
import menu from "@/components/ui/menu.module.css";
import { useNotificationCount } from "@/lib/client/notifications";
import styles from "./notification-bell.module.css";
import switches from "./switches.module.css";

// The panel (the list, its entries, paging and marking) loads when the bell first opens and runs only while
// it is open; until it is there the panel shows its title and says it is loading (docs/adr/0143).
const loadPanel = () => import("./bell-panel").then((m) => m.BellPanel);
const BellPanel = dynamic(loadPanel, { ssr: false, loading: PanelLoading });

function PanelLoading() {
  const t = useTranslations("bell");
  const tn = useTranslations("notifications");
  return (
    <>
      <div className={styles.head}>
        <h2 className={styles.title}>{t("title")}</h2>
      </div>
      <div className={styles.scroll}>
        <p className={entry.state}>{tn("loading")}</p>
      </div>
    </>
  );
}

/**
 * The bell of the top bar (spec section 2): a live badge with the unread count (hidden at 0, first painted
 * with the count the layout read); opening shows the panel (components/layout/bell-panel.tsx); closing
 * re-reads the count.
 */
export function NotificationBell({ initialCount }: { initialCount?: number }) {
  const t = useTranslations("bell");
  const [open, setOpen] = useState(false);
  const { count: unread, refresh } = useNotificationCount(initialCount);
  const label = unread > 0 ? t("labelUnread", { count: unread }) : t("label");
  // The entries marked read while this page is open, each once, across openings.
  const marked = useRef<Set<number>>(new Set());

  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (next) void loadPanel();
    else void refresh();
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
            <BellPanel unread={unread} refresh={() => void refresh()} marked={marked} onClose={() => onOpenChange(false)} />
          </Popover.Content>
        </Popover.Portal>
      )}
    </LazyPopover>
  );
}
