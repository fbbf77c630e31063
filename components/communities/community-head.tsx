import { useTranslations } from "next-intl";
import type { ReactNode } from "react";
import { Card } from "@/components/ui/card";
import type { CommunityDto } from "@/lib/validation/communities-shared";
import { CommunityAvatar } from "./community-avatar";
import { kindKey } from "./community-kind";
import styles from "./communities.module.css";

/**
 * The top of a community's page (issue 42): its cover, photo (or its letter), name, kind and members,
 * the description, and the caller's action (`children`).
 */
export function CommunityHead({ community, children }: { community: CommunityDto; children?: ReactNode }) {
  const t = useTranslations("communities");
  return (
    <Card className={styles.head} data-testid="community-head">
      <div className={styles.cover}>
        {community.cover ? (
          // Covers come from our own storage in any size (as the profile's cover).
          // eslint-disable-next-line @next/next/no-img-element
          <img src={community.cover} alt={t("coverAlt")} className={styles.coverImage} />
        ) : null}
      </div>
      <div className={styles.identity}>
        <div className={styles.photo}>
          <CommunityAvatar id={community.id} name={community.name} photo={community.photo} size={104} alt={t("photoAlt", { name: community.name })} />
        </div>
        <div className={styles.names}>
          <h1 className={styles.name} data-testid="community-name-heading">
            {community.name}
          </h1>
          <p className={styles.facts}>
            <span data-testid="community-kind">{t(`kind.${kindKey(community)}`)}</span>
            {" · "}
            <span data-testid="community-members-count">{t("membersCount", { count: community.membersCount })}</span>
          </p>
          {community.membership === "MEMBER" && community.role && community.role !== "MEMBER" ? (
            <p className={styles.roleLine} data-testid="community-role">
              {t(`yourRole.${community.role}`)}
            </p>
          ) : null}
        </div>
        {children ? <div className={styles.actions}>{children}</div> : null}
      </div>
      {community.description ? (
        <p className={styles.description} data-testid="community-description-text">
          {community.description}
        </p>
      ) : null}
    </Card>
  );
}
