"use client";

import { useTranslations } from "next-intl";
import Link from "@/components/ui/link";
import { Avatar } from "@/components/ui/avatar";
import { ChevronDownIcon, ChevronRightIcon, GlobeIcon, LogoutIcon, SettingsIcon, ShieldIcon } from "@/components/ui/icons";
import { LazyMenu } from "@/components/ui/lazy-radix";
import styles from "@/components/ui/menu.module.css";
import { logout } from "@/lib/client/api";
import type { ShellViewer } from "./shell-viewer";
import { LanguageRadioItems } from "./language-options";
import own from "./profile-menu.module.css";
import { ThemeIcon, ThemeRadioItems } from "./theme-options";

/** The profile menu of the top bar (spec section 1): photo, full name, Settings, language, theme, logout. */
export function ProfileMenu({ viewer }: { viewer: ShellViewer }) {
  const t = useTranslations("header");
  const nav = useTranslations("nav");
  const tTheme = useTranslations("theme");
  const tLang = useTranslations("language");
  const fullName = `${viewer.firstName} ${viewer.lastName}`;
  const trigger = {
    className: own.trigger,
    "aria-label": t("profileMenu"),
    "data-testid": "profile-menu",
    children: (
      <>
        <Avatar {...viewer} size={32} alt="" />
        <span className={own.name}>{viewer.firstName}</span>
        <ChevronDownIcon size={16} className={own.chevron} />
      </>
    ),
  };
  return (
    <LazyMenu trigger={trigger}>
      {(Menu) => (
        <Menu.Portal>
          <Menu.Content className={`${styles.content} ${own.content}`} align="end" sideOffset={8}>
            <Menu.Item asChild className={`${styles.item} ${own.who}`}>
              <Link href="/profile">
                <Avatar {...viewer} size={40} alt="" />
                <span className={own.whoText}>
                  <span className={own.fullName}>{fullName}</span>
                  <span className={own.sub}>{t("openProfile")}</span>
                </span>
              </Link>
            </Menu.Item>
            <Menu.Separator className={styles.separator} />
            <Menu.Item asChild className={styles.item}>
              <Link href="/settings">
                <SettingsIcon size={18} />
                <span className={styles.itemText}>{nav("settings")}</span>
              </Link>
            </Menu.Item>
            {viewer.role !== "USER" ? (
              <Menu.Item asChild className={styles.item}>
                <Link href="/admin">
                  <ShieldIcon size={18} />
                  <span className={styles.itemText}>{nav("admin")}</span>
                </Link>
              </Menu.Item>
            ) : null}
            <Menu.Sub>
              <Menu.SubTrigger className={styles.item}>
                <GlobeIcon size={18} />
                <span className={styles.itemText}>{tLang("label")}</span>
                <ChevronRightIcon size={16} />
              </Menu.SubTrigger>
              <Menu.Portal>
                <Menu.SubContent className={styles.content} sideOffset={6} alignOffset={-6}>
                  <LanguageRadioItems />
                </Menu.SubContent>
              </Menu.Portal>
            </Menu.Sub>
            <Menu.Sub>
              <Menu.SubTrigger className={styles.item}>
                <ThemeIcon size={18} />
                <span className={styles.itemText}>{tTheme("label")}</span>
                <ChevronRightIcon size={16} />
              </Menu.SubTrigger>
              <Menu.Portal>
                <Menu.SubContent className={styles.content} sideOffset={6} alignOffset={-6}>
                  <ThemeRadioItems />
                </Menu.SubContent>
              </Menu.Portal>
            </Menu.Sub>
            <Menu.Separator className={styles.separator} />
            <Menu.Item className={`${styles.item} ${styles.danger}`} onSelect={() => void logout()}>
              <LogoutIcon size={18} />
              <span className={styles.itemText}>{nav("exit")}</span>
            </Menu.Item>
          </Menu.Content>
        </Menu.Portal>
      )}
    </LazyMenu>
  );
}
