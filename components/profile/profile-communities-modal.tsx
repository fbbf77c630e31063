"use client";

import { useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import { GroupModal } from "@/components/chat/group-modal";
import { CommunityRow } from "@/components/communities/community-row";
import communityStyles from "@/components/communities/communities.module.css";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { api } from "@/lib/client/api";
import type { CommunityDto } from "@/lib/validation/communities-shared";
import type { Paged } from "@/lib/validation/friends-shared";

const PAGE = 20;

/** Every open community of a person, page by page (GET communities?memberId=), the dialog's body. */
function AllCommunities({ accountId }: { accountId: number }) {
  const t = useTranslations("communities");
  const [rows, setRows] = useState<CommunityDto[] | null>(null);
  const [page, setPage] = useState(0);
  const [hasMore, setHasMore] = useState(false);
  const [loading, setLoading] = useState(true);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    const controller = new AbortController();
    api<Paged<CommunityDto>>(`communities?${new URLSearchParams({ memberId: String(accountId), page: String(page), size: String(PAGE) })}`, { signal: controller.signal })
      .then((p) => {
        setRows((prev) => [...(page === 0 ? [] : (prev ?? [])), ...p.content]);
        setHasMore(page + 1 < p.totalPages);
        setLoading(false);
      })
      .catch(() => {
        if (controller.signal.aborted) return;
        setFailed(true);
        setLoading(false);
      });
    return () => controller.abort();
  }, [accountId, page]);
  if (failed && !rows) return <p className={communityStyles.note}>{t("actionFailed")}</p>;
  if (!rows) return <Spinner label={t("loading")} />;
  return (
    <>
      <ul className={communityStyles.list} data-testid="profile-communities-list">
        {rows.map((c) => (
          <CommunityRow key={c.id} community={c} />
        ))}
      </ul>
      {hasMore ? (
        <div className={communityStyles.more}>
          <Button
            variant="ghost"
            disabled={loading}
            onClick={() => {
              setLoading(true);
              setPage((p) => p + 1);
            }}
          >
            {loading ? t("loading") : t("showMore")}
          </Button>
        </div>
      ) : null}
    </>
  );
}

/**
 * The dialog of all of a person's open communities: loaded only when «Все» is first pressed (next/dynamic in
 * profile-communities-dialog.tsx), so a profile's first load carries neither it nor the communities' rows.
 */
export function CommunitiesModal({ accountId, title, onClose }: { accountId: number; title: string; onClose: () => void }) {
  const c = useTranslations("communities");
  return (
    <GroupModal open onClose={onClose} title={title} closeLabel={c("close")} testId="profile-communities-dialog">
      <AllCommunities accountId={accountId} />
    </GroupModal>
  );
}
