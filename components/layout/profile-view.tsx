import { getTranslations } from "next-intl/server";
import { Avatar } from "@/components/ui/avatar";
import { ButtonLink } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { FileTextIcon, SettingsIcon } from "@/components/ui/icons";
import type { AccountSummary } from "@/lib/server/services/accounts/viewer-summary";
import styles from "./profile-view.module.css";

/** A profile page's head (cover, photo, name) and its wall, for the own page and another user's. */
export async function ProfileView({ account, own }: { account: AccountSummary; own: boolean }) {
  const t = await getTranslations("profile");
  const common = await getTranslations("common");
  const fullName = `${account.firstName} ${account.lastName}`;
  return (
    <>
      <Card className={styles.head}>
        <div className={styles.cover} />
        <div className={styles.identity}>
          <div className={styles.photo}>
            <Avatar {...account} size={128} alt={common("avatarAlt", { name: fullName })} />
          </div>
          <div className={styles.names}>
            <h1 className={styles.name}>{fullName}</h1>
            {account.role !== "USER" ? (
              <p className={styles.role}>{account.role === "ADMIN" ? t("roleAdmin") : t("roleModerator")}</p>
            ) : null}
          </div>
          {own ? (
            <ButtonLink href="/settings" variant="secondary" className={styles.edit}>
              <SettingsIcon size={18} />
              {t("edit")}
            </ButtonLink>
          ) : null}
        </div>
      </Card>
      <Card>
        <CardHeader title={t("wallTitle")} />
        {own ? (
          <EmptyState icon={<FileTextIcon size={28} />} title={t("wallEmptyOwn")} text={t("wallEmptyOwnText")} />
        ) : (
          <EmptyState icon={<FileTextIcon size={28} />} title={t("wallEmpty")} text={t("wallEmptyText", { name: account.firstName })} />
        )}
      </Card>
    </>
  );
}
