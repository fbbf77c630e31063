"use client";

import * as Popover from "@radix-ui/react-popover";
import { useTranslations } from "next-intl";
import Link from "next/link";
import { useState } from "react";
import { EmptyState } from "@/components/ui/empty-state";
import { BellIcon } from "@/components/ui/icons";
import menu from "@/components/ui/menu.module.css";
import styles from "./notification-bell.module.css";
import switches from "./switches.module.css";

/**
 * The bell of the top bar: a badge with the unread count (hidden at 0) and a panel with the latest
 * notifications. The notifications feature fills the list; until it has any, the panel says so.
 */
export function NotificationBell({ unread = 0 }: { unread?: number }) {
  const t = useTranslations("bell");
  const [open, setOpen] = useState(false);
  const label = unread > 0 ? t("labelUnread", { count: unread }) : t("label");
  return (
    <Popover.Root open={open} onOpenChange={setOpen}>
      <Popover.Trigger className={`${switches.trigger} ${styles.trigger}`} aria-label={label} title={t("label")} data-testid="bell">
        <BellIcon />
        {unread > 0 ? (
          <span className={styles.badge} aria-hidden="true">
            {unread > 99 ? "99+" : unread}
          </span>
        ) : null}
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content className={`${menu.content} ${styles.panel}`} align="end" sideOffset={8} aria-label={t("title")}>
          <div className={styles.head}>
            <h2 className={styles.title}>{t("title")}</h2>
          </div>
          <EmptyState compact headingLevel={3} icon={<BellIcon size={24} />} title={t("emptyTitle")} text={t("emptyText")} />
          <div className={styles.foot}>
            <Link href="/push" className={styles.all} onClick={() => setOpen(false)}>
              {t("all")}
            </Link>
          </div>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
