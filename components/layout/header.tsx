import { getTranslations } from "next-intl/server";
import Link from "@/components/ui/link";
import { ButtonLink } from "@/components/ui/button";
import { LogoMark } from "@/components/ui/icons";
import { SearchIcon } from "@/components/ui/icons-more";
import styles from "./header.module.css";
import { LanguageSwitch } from "./language-switch";
import { LiveNotificationToasts } from "@/components/notifications/live-toasts";
import { NotificationBell } from "./notification-bell";
import { ProfileMenu } from "./profile-menu";
import { SearchForm } from "./search-form";
import { SearchSuggest } from "./search-suggest";
import type { ShellViewer } from "./shell-viewer";
import { ThemeSwitch } from "./theme-switch";

/**
 * The top bar (spec section 1): logo → own page, search, bell, profile menu, theme and language
 * switches. A deleted account sees neither the search box nor the bell. The bell's first count comes
 * from the layout (the server), not from a request of the starting page (docs/adr/0143).
 */
export async function Header({ viewer, unreadNotifications }: { viewer: ShellViewer | null; unreadNotifications?: number }) {
  const t = await getTranslations("header");
  const app = await getTranslations("app");
  const active = viewer !== null && !viewer.isDeleted;
  return (
    <header className={styles.header}>
      <div className={styles.inner}>
        <Link href="/profile" className={styles.logo} aria-label={app("logoLabel")}>
          <LogoMark size={30} />
          <span className={styles.wordmark} aria-hidden="true">
            {app("name")}
          </span>
        </Link>
        <div className={styles.middle}>
          {viewer === null || active ? (
            <SearchForm role="search" aria-label={t("searchLabel")} className={viewer === null ? `${styles.search} ${styles.collapsible}` : styles.search}>
              <input type="hidden" name="tab" value="people" />
              <label htmlFor="header-search" className="visually-hidden">
                {t("searchLabel")}
              </label>
              <SearchIcon size={18} className={styles.searchIcon} />
              {active ? (
                <SearchSuggest className={styles.searchInput} placeholder={t("searchPlaceholder")} />
              ) : (
                <input
                  id="header-search"
                  className={styles.searchInput}
                  type="search"
                  name="query"
                  placeholder={t("searchPlaceholder")}
                  maxLength={100}
                  autoComplete="off"
                  enterKeyHint="search"
                />
              )}
            </SearchForm>
          ) : null}
        </div>
        <div className={styles.actions}>
          {active ? <NotificationBell initialCount={unreadNotifications} /> : null}
          {active ? <LiveNotificationToasts /> : null}
          <div className={viewer ? styles.wideOnly : styles.switches}>
            <ThemeSwitch />
            <LanguageSwitch />
          </div>
          {viewer ? (
            <ProfileMenu viewer={viewer} />
          ) : (
            <ButtonLink href="/login" className={styles.signIn}>
              {t("signIn")}
            </ButtonLink>
          )}
        </div>
      </div>
    </header>
  );
}
