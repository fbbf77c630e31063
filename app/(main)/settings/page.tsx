import { getLocale, getTranslations } from "next-intl/server";
import Link from "@/components/ui/link";
import { AppearanceSettings } from "@/components/layout/appearance-settings";
import { requireViewer } from "@/components/layout/current-viewer";
import { DeleteProfile } from "@/components/settings/delete-profile";
import { MyData } from "@/components/settings/my-data";
import { ImageSetting } from "@/components/settings/image-setting";
import { NotificationSwitches } from "@/components/settings/notification-switches";
import { PrivacySettings } from "@/components/settings/privacy-settings";
import { DevicePush } from "@/components/push/device-push";
import { ProfileForm } from "@/components/settings/profile-form";
import { toProfileValues } from "@/components/settings/profile-values";
import formStyles from "@/components/settings/settings-form.module.css";
import { Card, CardHeader } from "@/components/ui/card";
import { ChevronRightIcon } from "@/components/ui/icons";
import { LockIcon, MailIcon } from "@/components/ui/icons-more";
import { getDb } from "@/db/client";
import { isLocale, DEFAULT_LOCALE } from "@/lib/i18n/config";
import { routeMetadata } from "@/lib/i18n/metadata";
import { listCities } from "@/lib/server/geo/cities";
import { listCountries } from "@/lib/server/geo/countries";
import { env } from "@/lib/server/env";
import { getMyAccount } from "@/lib/server/services/accounts/get-account";
import { getAccountExport } from "@/lib/server/services/account-export/requests";
import { getNotificationSettings } from "@/lib/server/services/notifications/settings";
import { getPrivacySettings } from "@/lib/server/services/privacy/settings";
import { listPushDevices } from "@/lib/server/services/push/subscriptions";
import styles from "./settings.module.css";
import { requestLocale } from "@/lib/i18n/request";
import { withClientMessages } from "@/components/layout/client-messages";

export const generateMetadata = () => routeMetadata("Settings");

async function SettingsPage() {
  const { viewer } = await requireViewer("Settings");
  const ctx = { viewer, db: getDb(), requestId: "page", locale: await requestLocale() };
  const [account, notifications, privacy, pushDevices, myData, t, rawLocale] = await Promise.all([
    getMyAccount({ ctx }),
    getNotificationSettings({ ctx }),
    getPrivacySettings({ ctx }),
    listPushDevices({ ctx }),
    getAccountExport({ ctx }),
    getTranslations("settings"),
    getLocale(),
  ]);
  const locale = isLocale(rawLocale) ? rawLocale : DEFAULT_LOCALE;
  // The account's place comes titled in this page's language from its ids, whatever language it was saved in.
  const countryId = account.countryId;
  const initial = toProfileValues(account);
  const cities = countryId ? listCities(countryId, locale) : null;
  const owner = { id: account.id, firstName: account.firstName, lastName: account.lastName };

  return (
    <>
      <Card>
        <CardHeader as="h1" title={t("heading")} />
        <section className={styles.section} aria-labelledby="profile-settings">
          <h2 id="profile-settings" className={styles.title}>
            {t("profile")}
          </h2>
          <p className={styles.text}>{t("profileText")}</p>
          <div className={formStyles.images}>
            <ImageSetting kind="photo" owner={owner} initial={account.photo} />
            <ImageSetting kind="profileCover" owner={owner} initial={account.profileCover} />
          </div>
          <ProfileForm
            initial={initial}
            countries={listCountries(locale)}
            initialCities={countryId && cities ? { countryId, cities } : null}
          />
        </section>
      </Card>
      <Card>
        <CardHeader title={t("notifications")} />
        <section className={styles.section} aria-label={t("notifications")}>
          <p className={styles.text}>{t("notificationsText")}</p>
          <NotificationSwitches initial={notifications} />
          <DevicePush initial={pushDevices} place="settings" />
        </section>
      </Card>
      <Card>
        <CardHeader title={t("privacy")} />
        {/* #privacy: where a refused follow of a person of another server leads (issue 43). */}
        <section className={styles.section} id="privacy" aria-label={t("privacy")}>
          <p className={styles.text}>{t("privacyText")}</p>
          <PrivacySettings initial={privacy} accountId={account.id} host={new URL(env().PUBLIC_URL).host} />
        </section>
      </Card>
      <Card>
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
      <Card>
        <section className={styles.section} id="my-data" aria-labelledby="my-data-title">
          <h2 id="my-data-title" className={styles.title}>
            {t("myData")}
          </h2>
          <MyData initial={myData} />
        </section>
      </Card>
      <Card>
        <CardHeader title={t("deleteHeading")} />
        <section className={styles.section} aria-label={t("deleteHeading")}>
          <DeleteProfile restoreDays={env().DELETION_RESTORE_DAYS} />
        </section>
      </Card>
    </>
  );
}

export default withClientMessages("(main)/settings/page", SettingsPage);
