"use client";

import { useTranslations } from "next-intl";
import Link from "@/components/ui/link";
import { usePathname } from "next/navigation";
import { UnreadBadge } from "@/components/chat/unread-badge";
import { CalculatorIcon, CommunitiesIcon, LogoutIcon, MoreIcon, SettingsIcon, ShieldIcon } from "@/components/ui/icons";
import { LazyMenu } from "@/components/ui/lazy-radix";
import menu from "@/components/ui/menu.module.css";
import { logout } from "@/lib/client/api";
import { FriendRequestsBadge } from "./friend-requests-badge";
import { LanguageRadioItems } from "./language-options";
import styles from "./mobile-nav.module.css";
import { isCurrent, USER_NAV } from "./nav-items";
import type { ShellViewer } from "./shell-viewer";
import { ThemeRadioItems } from "./theme-options";

// The four most used sections fit a 360 px phone as a bottom bar; the rest (communities, the calculator,
// settings) sits behind "More".
const BAR = USER_NAV.filter((item) => item.href !== "/calculator" && item.href !== "/communities");

/** Phone-width navigation: a bottom tab bar that replaces the sidebar. */
export function MobileNav({ viewer, unreadMessages = 0, friendRequests }: { viewer: ShellViewer; unreadMessages?: number; friendRequests?: number }) {
  const t = useTranslations("nav");
  const tTheme = useTranslations("theme");
  const tLang = useTranslations("language");
  const pathname = usePathname();
  const moreCurrent = ["/communities", "/calculator", "/settings"].some((href) => isCurrent(pathname, href));
  const moreTrigger = {
    className: styles.tab,
    "data-current": moreCurrent || undefined,
    children: (
      <>
        <MoreIcon size={22} />
        <span className={styles.label}>{t("more")}</span>
      </>
    ),
  };
  return (
    <nav className={styles.bar} aria-label={t("mobile")}>
      {BAR.map(({ href, label, Icon }) => (
        <Link key={href} href={href} className={styles.tab} aria-current={isCurrent(pathname, href, viewer.id) ? "page" : undefined}>
          <Icon size={22} />
          <span className={styles.label}>{t(label === "profile" ? "profileShort" : label)}</span>
          {href === "/im" ? <UnreadBadge viewerId={viewer.id} initial={unreadMessages} corner /> : null}
          {href === "/friends" ? <FriendRequestsBadge variant="bar" initial={friendRequests} /> : null}
        </Link>
      ))}
      <LazyMenu trigger={moreTrigger}>
        {(Menu) => (
          <Menu.Portal>
            <Menu.Content className={menu.content} side="top" align="end" sideOffset={8} collisionPadding={8}>
              <Menu.Item asChild className={menu.item}>
                <Link href="/communities" data-testid="nav-communities">
                  <CommunitiesIcon size={18} />
                  <span className={menu.itemText}>{t("communities")}</span>
                </Link>
              </Menu.Item>
              <Menu.Item asChild className={menu.item}>
                <Link href="/calculator">
                  <CalculatorIcon size={18} />
                  <span className={menu.itemText}>{t("calculator")}</span>
                </Link>
              </Menu.Item>
              <Menu.Item asChild className={menu.item}>
                <Link href="/settings">
                  <SettingsIcon size={18} />
                  <span className={menu.itemText}>{t("settings")}</span>
                </Link>
              </Menu.Item>
              {viewer.role !== "USER" ? (
                <Menu.Item asChild className={menu.item}>
                  <Link href="/admin">
                    <ShieldIcon size={18} />
                    <span className={menu.itemText}>{t("admin")}</span>
                  </Link>
                </Menu.Item>
              ) : null}
              <Menu.Separator className={menu.separator} />
              <Menu.Label className={menu.label}>{tLang("label")}</Menu.Label>
              <LanguageRadioItems />
              <Menu.Label className={menu.label}>{tTheme("label")}</Menu.Label>
              <ThemeRadioItems />
              <Menu.Separator className={menu.separator} />
              <Menu.Item className={`${menu.item} ${menu.danger}`} onSelect={() => void logout()}>
                <LogoutIcon size={18} />
                <span className={menu.itemText}>{t("exit")}</span>
              </Menu.Item>
            </Menu.Content>
          </Menu.Portal>
        )}
      </LazyMenu>
    </nav>
  );
}
