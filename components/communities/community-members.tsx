"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";
import { GroupModal } from "@/components/chat/group-modal";
import { Avatar } from "@/components/ui/avatar";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import Link from "@/components/ui/link";
import { Spinner } from "@/components/ui/spinner";
import type { CommunityDto, CommunityMemberDto } from "@/lib/validation/communities-shared";
import type { Paged } from "@/lib/validation/friends-shared";
import { MemberRow } from "./member-row";
import { useMemberPages } from "./use-member-pages";
import styles from "./communities.module.css";

/** Every member, page by page (the dialog's body; friends come first, as the API orders them). */
function AllMembers({ communityId }: { communityId: number }) {
  const t = useTranslations("communities");
  const list = useMemberPages(communityId, "MEMBER");
  if (list.failed && !list.rows) return <p className={styles.note}>{t("membersFailed")}</p>;
  if (!list.rows) return <Spinner label={t("loading")} />;
  return (
    <>
      <ul className={styles.memberList} data-testid="all-members">
        {list.rows.map((m) => (
          <MemberRow key={m.id} member={m} />
        ))}
      </ul>
      {list.hasMore ? (
        <div className={styles.more}>
          <Button variant="ghost" onClick={list.more} disabled={list.loading}>
            {list.loading ? t("loading") : t("showMore")}
          </Button>
        </div>
      ) : null}
    </>
  );
}

/**
 * The members block of a community's page (issue 42): up to six faces (friends first) and «Все участники»,
 * a dialog listing them all.
 */
export function CommunityMembers({ community, faces }: { community: CommunityDto; faces: Paged<CommunityMemberDto> }) {
  const t = useTranslations("communities");
  const [open, setOpen] = useState(false);
  return (
    <Card data-testid="community-members">
      <CardHeader title={t("membersHeading")}>
        <span className={styles.count}>{t("membersCount", { count: community.membersCount })}</span>
      </CardHeader>
      <ul className={styles.faces}>
        {faces.content.slice(0, 6).map((m) => (
          <li key={m.id}>
            <Link href={`/profile/${m.id}`} className={styles.face} data-testid="member-face">
              <Avatar id={m.id} firstName={m.firstName} lastName={m.lastName} photo={m.photo} size={56} alt="" />
              <span className={styles.faceName}>{m.firstName}</span>
            </Link>
          </li>
        ))}
      </ul>
      {faces.totalElements > 0 ? (
        <div className={styles.more}>
          <Button variant="ghost" onClick={() => setOpen(true)} data-testid="all-members-open">
            {t("allMembers")}
          </Button>
        </div>
      ) : null}
      <GroupModal open={open} onClose={() => setOpen(false)} title={t("allMembersTitle", { count: community.membersCount })} closeLabel={t("close")} testId="members-dialog">
        <AllMembers communityId={community.id} />
      </GroupModal>
    </Card>
  );
}
