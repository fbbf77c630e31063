import { useTranslations } from "next-intl";
import type { ReactNode } from "react";
import Link from "@/components/ui/link";
import type { CommunityDto } from "@/lib/validation/communities-shared";
import { CommunityAvatar } from "./community-avatar";
import { kindKey } from "./community-kind";
import styles from "./communities.module.css";

/** One community in a list: its photo and name (a link to its page), its kind and members, and what the caller may do. */
export function CommunityRow({ community, children }: { community: CommunityDto; children?: ReactNode }) {
  const t = useTranslations("communities");
  const href = `/community/${community.id}`;
  return (
    <li className={styles.row} data-testid="community-row">
      <Link href={href} className={styles.rowPhoto} tabIndex={-1} aria-hidden="true">
        <CommunityAvatar id={community.id} name={community.name} photo={community.photo} size={56} />
      </Link>
      <div className={styles.rowText}>
        <Link href={href} className={styles.rowName}>
          {community.name}
        </Link>
        <p className={styles.rowMeta}>
          {t(`kind.${kindKey(community)}`)} · {t("membersCount", { count: community.membersCount })}
        </p>
        {community.membership === "MEMBER" && community.role && community.role !== "MEMBER" ? <p className={styles.rowRole}>{t(`role.${community.role}`)}</p> : null}
      </div>
      {children ? <div className={styles.rowActions}>{children}</div> : null}
    </li>
  );
}
