"use client";

import { useTranslations } from "next-intl";
import Link from "@/components/ui/link";
import { usePathname } from "next/navigation";
import { AlertIcon, GlobeIcon, LogoMark, LogoutIcon, NewsIcon } from "@/components/ui/icons";
import { EyeIcon } from "@/components/ui/icons-more";
import { OpenReportsBadge } from "@/components/admin/open-reports-badge";
import { logout } from "@/lib/client/api";
import styles from "./admin-sidebar.module.css";
import { LanguageSwitch } from "./language-switch";
import { ADMIN_NAV, isCurrent } from "./nav-items";
import { ThemeSwitch } from "./theme-switch";

/** The admin area's own navigation (there is no top bar on admin pages, spec section 2). */
export function AdminSidebar() {
  const t = useTranslations("nav");
  const routes = useTranslations("routes");
  const admin = useTranslations("admin");
  const pathname = usePathname();
  return (
    <aside className={styles.aside}>
      <div className={styles.inner}>
        <div className={styles.brand}>
          <LogoMark size={28} />
          <span>{t("admin")}</span>
        </div>
        <nav aria-label={t("adminMenu")} className={styles.nav}>
          <ul className={styles.list}>
            {ADMIN_NAV.map(({ href, label, Icon }) => (
              <li key={href}>
                <Link href={href} className={styles.link} aria-current={isCurrent(pathname, href, undefined, href === "/admin") ? "page" : undefined}>
                  <Icon size={20} />
                  <span>{routes(label)}</span>
                </Link>
              </li>
            ))}
            <li>
              <Link href="/admin/reports" className={styles.link} aria-current={isCurrent(pathname, "/admin/reports") ? "page" : undefined}>
                <AlertIcon size={20} />
                <span>{routes("AdminReports")}</span>
                <OpenReportsBadge />
              </Link>
            </li>
            <li>
              <Link href="/admin/audit" className={styles.link} aria-current={isCurrent(pathname, "/admin/audit") ? "page" : undefined}>
                <EyeIcon size={20} />
                <span>{admin("auditTitle")}</span>
              </Link>
            </li>
            <li>
              <Link href="/admin/fediverse" className={styles.link} aria-current={isCurrent(pathname, "/admin/fediverse") ? "page" : undefined}>
                <GlobeIcon size={20} />
                <span>{admin("navFediverse")}</span>
              </Link>
            </li>
          </ul>
        </nav>
        <div className={styles.foot}>
          <Link href="/" className={styles.link}>
            <NewsIcon size={20} />
            <span>{t("backToSite")}</span>
          </Link>
          <button type="button" className={styles.link} onClick={() => void logout()}>
            <LogoutIcon size={20} />
            <span>{t("exit")}</span>
          </button>
          <div className={styles.switches}>
            <ThemeSwitch />
            <LanguageSwitch />
          </div>
        </div>
      </div>
    </aside>
  );
}
