"use client";

import { useTranslations } from "next-intl";
import { useEffect, useId, useState } from "react";
import { Card, CardHeader } from "@/components/ui/card";
import { api } from "@/lib/client/api";
import type { CommunityDto, CommunityMemberDto, MemberListStatus } from "@/lib/validation/communities-shared";
import type { Paged } from "@/lib/validation/friends-shared";
import { CommunitySettings } from "./community-settings";
import { ManageList } from "./manage-lists";
import styles from "./communities.module.css";

type Tab = "SETTINGS" | MemberListStatus;
const TABS: Tab[] = ["SETTINGS", "REQUESTED", "MEMBER", "BANNED", "INVITED"];

/** «Управление» (issue 42), for a community's admins and owner: its settings and its lists of people, one tab at a time. */
export function ManagePanel({ community, viewerId, restoreDays }: { community: CommunityDto; viewerId: number; restoreDays: number }) {
  const t = useTranslations("communities");
  const id = useId();
  const [tab, setTab] = useState<Tab>("SETTINGS");
  const [requests, setRequests] = useState(0);
  // Requests waiting, on their tab; read again with the page (an answer to one re-reads it).
  useEffect(() => {
    let cancelled = false;
    api<Paged<CommunityMemberDto>>(`communities/${community.id}/members?status=REQUESTED&size=1`).then(
      (page) => !cancelled && setRequests(page.totalElements),
      () => {},
    );
    return () => {
      cancelled = true;
    };
  }, [community]);
  return (
    <Card data-testid="community-manage">
      <CardHeader title={t("manageHeading")} />
      <div className={styles.tabs} role="tablist" aria-label={t("manageHeading")}>
        {TABS.map((name) => (
          <button
            key={name}
            type="button"
            role="tab"
            id={`${id}-${name}`}
            aria-selected={tab === name}
            aria-controls={`${id}-panel`}
            className={styles.tab}
            onClick={() => setTab(name)}
            data-testid={`manage-tab-${name.toLowerCase()}`}
          >
            {t(`manageTab.${name}`)}
            {name === "REQUESTED" && requests > 0 ? (
              <>
                <span className={styles.badge} aria-hidden="true" data-testid="requests-badge">
                  {requests}
                </span>
                <span className="visually-hidden">{t("requestsBadge", { count: requests })}</span>
              </>
            ) : null}
          </button>
        ))}
      </div>
      <div className={styles.tabPanel} role="tabpanel" id={`${id}-panel`} aria-labelledby={`${id}-${tab}`}>
        {tab === "SETTINGS" ? (
          <CommunitySettings community={community} restoreDays={restoreDays} />
        ) : (
          <ManageList key={tab} community={community} viewerId={viewerId} status={tab} />
        )}
      </div>
    </Card>
  );
}
