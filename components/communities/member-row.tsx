import { useTranslations } from "next-intl";
import type { ReactNode } from "react";
import { Avatar } from "@/components/ui/avatar";
import Link from "@/components/ui/link";
import type { CommunityMemberDto } from "@/lib/validation/communities-shared";
import styles from "./communities.module.css";

/** A person of a community's list: photo and name (to their page), role (above a member), a friend's mark, and actions. */
export function MemberRow({ member, children, failure }: { member: CommunityMemberDto; children?: ReactNode; failure?: string | null }) {
  const t = useTranslations("communities");
  const name = `${member.firstName} ${member.lastName}`.trim();
  const notes = [member.status === "MEMBER" && member.role && member.role !== "MEMBER" ? t(`role.${member.role}`) : null, member.isFriend ? t("friend") : null].filter(Boolean);
  return (
    <li className={styles.memberRow} data-testid="member-row" data-member-id={member.id}>
      <Link href={`/profile/${member.id}`} className={styles.memberLink}>
        <Avatar id={member.id} firstName={member.firstName} lastName={member.lastName} photo={member.photo} size={40} alt="" />
        <span className={styles.personText}>
          <span className={styles.personName}>{name}</span>
          {notes.length > 0 ? <span className={styles.memberNote}>{notes.join(" · ")}</span> : null}
        </span>
      </Link>
      {children ? <div className={styles.memberActions}>{children}</div> : null}
      {failure ? (
        <p className={styles.rowFailure} role="alert">
          {failure}
        </p>
      ) : null}
    </li>
  );
}
