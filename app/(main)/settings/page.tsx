import { getTranslations } from "next-intl/server";
import Link from "next/link";
import { AppearanceSettings } from "@/components/layout/appearance-settings";
import { requireViewer } from "@/components/layout/current-viewer";
import { Card, CardHeader } from "@/components/ui/card";
import { ChevronRightIcon, LockIcon, MailIcon } from "@/components/ui/icons";
import { routeMetadata } from "@/lib/i18n/metadata";
import styles from "./settings.module.css";

export const generateMetadata = () => routeMetadata("Settings");

export default async function SettingsPage() {
  await requireViewer("Settings");
  const t = await getTranslations("settings");
  return (
    <>
      <Card>
        <CardHeader as="h1" title={t("heading")} />
        <section className={styles.section} aria-labelledby="appearance">
          <h2 id="appearance" className={styles.title}>
            {t("appearance")}
          </h2>
          <p className={styles.text}>{t("appearanceText")}</p>
          <AppearanceSettings />
        </section>
      </Card>
      <Card>
        <CardHeader title={t("security")} />
        <ul className={styles.links}>
          <li>
            <Link href="/shift-password" className={styles.row}>
              <LockIcon size={20} />
              <span className={styles.rowText}>
                <span className={styles.rowTitle}>{t("changePassword")}</span>
                <span className={styles.rowHint}>{t("changePasswordText")}</span>
              </span>
              <ChevronRightIcon size={18} />
            </Link>
          </li>
          <li>
            <Link href="/shift-email" className={styles.row}>
              <MailIcon size={20} />
              <span className={styles.rowText}>
                <span className={styles.rowTitle}>{t("changeEmail")}</span>
                <span className={styles.rowHint}>{t("changeEmailText")}</span>
              </span>
              <ChevronRightIcon size={18} />
            </Link>
          </li>
        </ul>
      </Card>
    </>
  );
}
