"use client";

import { useTranslations } from "next-intl";
import Link from "@/components/ui/link";
import { usePathname } from "next/navigation";
import { UnreadBadge } from "@/components/chat/unread-badge";
import { LogoutIcon, SettingsIcon, ShieldIcon } from "@/components/ui/icons";
import { logout } from "@/lib/client/api";
import { FriendRequestsBadge } from "./friend-requests-badge";
import { isCurrent, USER_NAV } from "./nav-items";
import type { ShellViewer } from "./shell-viewer";
import styles from "./sidebar.module.css";

export function Sidebar({ viewer, unreadMessages = 0, friendRequests }: { viewer: ShellViewer; unreadMessages?: number; friendRequests?: number }) {
  const t = useTranslations("nav");
  const pathname = usePathname();
  return (
    <nav className={styles.sidebar} aria-label={t("main")}>
      <ul className={styles.list}>
        {USER_NAV.map(({ href, label, Icon }) => (
          <li key={href}>
            <Link href={href} className={styles.link} aria-current={isCurrent(pathname, href, viewer.id) ? "page" : undefined}>
              <Icon size={20} />
              <span>{t(label)}</span>
              {href === "/im" ? <UnreadBadge viewerId={viewer.id} initial={unreadMessages} /> : null}
              {href === "/friends" ? <FriendRequestsBadge variant="sidebar" initial={friendRequests} /> : null}
            </Link>
          </li>
        ))}
      </ul>
      <div className={styles.divider} role="presentation" />
      <ul className={styles.list}>
        {viewer.role !== "USER" ? (
          <li>
            <Link href="/admin" className={styles.link}>
              <ShieldIcon size={20} />
              <span>{t("admin")}</span>
            </Link>
          </li>
        ) : null}
        <li>
          <Link href="/settings" className={styles.link} aria-current={isCurrent(pathname, "/settings") ? "page" : undefined}>
            <SettingsIcon size={20} />
            <span>{t("settings")}</span>
          </Link>
        </li>
        <li>
          <button type="button" className={styles.link} onClick={() => void logout()}>
            <LogoutIcon size={20} />
            <span>{t("exit")}</span>
          </button>
        </li>
      </ul>
    </nav>
  );
}
